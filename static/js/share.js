// Copy or share a link shown in a read-only field: the phone's share sheet where it has one,
// else the clipboard. Without JavaScript the buttons stay hidden and the field can be copied.
(function () {
  "use strict";
  document.querySelectorAll("[data-share-field]").forEach(function (button) {
    var field = document.getElementById(button.dataset.shareField);
    if (!field) { return; }
    button.hidden = false;
    button.addEventListener("click", function () {
      var url = field.value;
      var copy = function () {
        if (!navigator.clipboard) { field.select(); return; }
        navigator.clipboard.writeText(url).then(function () {
          button.textContent = button.dataset.done;
        }, function () { field.select(); });
      };
      if (navigator.share) {
        // data-share-title tells the links of one page apart ("Watch" / "Record hands").
        navigator.share({ title: button.dataset.shareTitle || document.title, url: url }).catch(function (error) {
          if (error && error.name !== "AbortError") { copy(); }  // refused, not cancelled
        });
      } else {
        copy();
      }
    });
  });
})();
