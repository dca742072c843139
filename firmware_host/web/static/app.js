// draughtsboard web: live updates through Server-Sent Events, and control without a reload.
// No framework, no build step. A page that reconnects resumes from its last stream id: the
// browser sends it back as Last-Event-ID.
"use strict";
(function () {
  function follow(root, cursor) {
    var url = root.dataset.feed;
    if (cursor) { url += (url.indexOf("?") < 0 ? "?" : "&") + "cursor=" + encodeURIComponent(cursor); }
    var source = new EventSource(url);
    // The browser reconnects by itself (with Last-Event-ID); but after an error answer (503:
    // the boards' Redis is away) it gives up: then start again from the last id seen.
    source.addEventListener("error", function () {
      if (source.readyState === EventSource.CLOSED) {
        setTimeout(function () { window.draughtsboardFeed = follow(root, cursor); }, 2000);
      }
    });
    source.addEventListener("board", function (message) {
      if (message.lastEventId) { cursor = message.lastEventId; }
      var data = JSON.parse(message.data);
      if (root.id === "panel") {
        if (data.panel) { root.innerHTML = data.panel; }
        return;
      }
      var card = document.getElementById("board-" + data.board);
      if (!card) {
        var empty = root.querySelector(".empty");
        if (empty) { empty.remove(); }
        card = document.createElement("article");
        card.className = "card";
        card.id = "board-" + data.board;
        card.dataset.board = data.board;
        root.appendChild(card);
      }
      card.innerHTML = data.card;
    });
    return source;
  }
  function controls() {
    var status = document.getElementById("status");
    document.querySelectorAll(".control form").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        var body = new URLSearchParams(new FormData(form));
        if (event.submitter && event.submitter.name) { body.set(event.submitter.name, event.submitter.value); }
        fetch(form.action, { method: "POST", body: body, credentials: "same-origin",
                             headers: { "Accept": "application/json" } })
          .then(function (r) { return r.json(); })
          .then(function (reply) { if (status) { status.textContent = reply.message; } })
          .catch(function () { if (status) { status.textContent = "not sent: no connection"; } });
      });
    });
  }
  function steps() {
    // The replay: the arrow keys step through the game.
    var keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
    document.addEventListener("keydown", function (event) {
      var link = keys[event.key] && document.querySelector("#steps a[rel=" + keys[event.key] + "]");
      if (link) { window.location.href = link.href; }
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    if (document.getElementById("steps")) { steps(); }
    var root = document.getElementById("hall") || document.getElementById("panel");
    if (root) { window.draughtsboardFeed = follow(root, root.dataset.cursor); }
    controls();
  });
})();
