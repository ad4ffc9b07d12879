"""The engine's own exceptions: a stable code and parameters, plus an English message.

The web layer translates by ``code`` and ``params``; the English ``message`` is for the
command line and logs. Bugs are ordinary Python exceptions, never EngineError.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at run time: the command line starts faster
if TYPE_CHECKING:
    from collections.abc import Mapping


class EngineError(ValueError):
    """A user's input breaks a rule: a bad card, an illegal meld, an unknown option."""

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: Mapping[str, object] = dict(params)

    def as_dict(self) -> dict[str, object]:
        return {"ok": False, "code": self.code, "error": self.message, "params": dict(self.params)}

    def __reduce__(self) -> tuple[object, ...]:
        # Pickled as it stands (code, message, params and any subclass's own fields): the
        # default would call ``type(self)(message)``, which this __init__ does not take.
        return (_restored, (type(self), self.args, dict(self.__dict__)))


def _restored(cls: type[EngineError], args: tuple[object, ...], state: dict[str, object]) -> EngineError:
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error
