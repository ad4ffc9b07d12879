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
      if (navigator.share) {
        navigator.share({ title: document.title, url: url }).catch(function () {});
      } else if (navigator.clipboard) {
        navigator.clipboard.writeText(url).then(function () {
          button.textContent = button.dataset.done;
        });
      } else {
        field.select();
      }
    });
  });
})();
