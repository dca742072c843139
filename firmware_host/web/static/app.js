// draughtsboard web: live updates through Server-Sent Events, and control without a reload.
// No framework, no build step. The feed sends what changed, as small JSON (docs/web.md): the
// moves (with the position after them), the LED frame, the state, the board's sentences, the
// service's liveness; a whole card or panel ("html") only when a game starts, is taken back or
// ends. Every message carries the stream ids of what it delivered; the page keeps them (its
// cursor) and reconnects with them, so nothing is missed and nothing repeated.
"use strict";
(function () {
  var PIECES = { white: ["#fafafa", "#555"], black: ["#1c1c1c", "#999"] };
  var ROLES = { from: "#2e9e44", to: "#2e9e44", path: "#8e44ad", remove: "#d0342c",
    legal: "#f4f4f4", must: "#f39c12", hint: "#f1c40f", missing: "#2e9e44", extra: "#d0342c",
    adjust: "#3a7bd5", crown: "#d4af37", result: "#f4f4f4" };
  var SVG = "http://www.w3.org/2000/svg";

  // -- the viewer's language ----------------------------------------------------------------
  // The page carries its words in the viewer's language as JSON in <body data-words> (English
  // -> translated; empty for English): what the script writes and what a whole card or panel
  // from the feed (drawn once, in English, for every viewer) says, is put in those words.
  var WORDS = {};
  try { WORDS = JSON.parse(document.body.dataset.words || "{}"); } catch (e) { WORDS = {}; }
  function t(text) { return Object.prototype.hasOwnProperty.call(WORDS, text) ? WORDS[text] : text; }
  function translate(box) {
    box.querySelectorAll("*").forEach(function (e) {
      if (e.children.length === 0 && e.textContent) {
        var text = e.textContent.trim();
        if (Object.prototype.hasOwnProperty.call(WORDS, text)) { e.textContent = WORDS[text]; }
      }
    });
  }
  function seenText(data) {
    if (typeof data.seen !== "number") { return t("never seen"); }
    var at = new Date(data.seen * 1000).toISOString().slice(0, 19).replace("T", " ") + " UTC";
    return t("last seen {time}").replace("{time}", at);
  }

  function parseCursor(text, into) {
    (text || "").split(",").forEach(function (part) {
      var i = part.indexOf("=");
      if (i > 0) { into[part.slice(0, i)] = part.slice(i + 1); }
    });
    return into;
  }
  function formatCursor(cursor) {
    return Object.keys(cursor).sort().map(function (b) { return b + "=" + cursor[b]; }).join(",");
  }

  // -- the diagram ------------------------------------------------------------------------
  function fenPieces(fen) {
    // "W:W31-50,K12:B1-20" -> [[square name, "white"|"black", king], ...]
    var out = [];
    fen.replace(/\.$/, "").split(":").slice(1).forEach(function (part) {
      var side = part.charAt(0) === "W" ? "white" : "black";
      part.slice(1).split(",").forEach(function (item) {
        if (!item) { return; }
        var king = item.charAt(0) === "K";
        if (king) { item = item.slice(1); }
        var range = /^(\d+)-(\d+)$/.exec(item);
        if (range) {
          for (var n = +range[1]; n <= +range[2]; n++) { out.push([String(n), side, king]); }
        } else { out.push([item, side, king]); }
      });
    });
    return out;
  }
  function circle(attrs) {
    var c = document.createElementNS(SVG, "circle");
    Object.keys(attrs).forEach(function (k) { c.setAttribute(k, attrs[k]); });
    return c;
  }
  function centre(rect) {
    var x = +rect.getAttribute("x"), y = +rect.getAttribute("y"), w = +rect.getAttribute("width");
    return [x + w / 2, y + w / 2, w];
  }
  function drawPosition(svg, fen) {
    var layer = svg.querySelector("g.b");
    if (!layer) { return; }
    layer.querySelectorAll(".piece, .crown").forEach(function (e) { e.remove(); });
    var leds = layer.querySelectorAll(".led");
    fenPieces(fen).forEach(function (p) {
      var rect = layer.querySelector('rect[data-sq="' + p[0] + '"]');
      if (!rect) { return; }
      var c = centre(rect), cell = c[2];
      layer.appendChild(circle({ "class": "piece " + p[1] + (p[2] ? " king" : " man"),
        "data-square": p[0], cx: c[0], cy: c[1], r: cell * 0.38, fill: PIECES[p[1]][0],
        stroke: PIECES[p[1]][1], "stroke-width": Math.max(1, cell / 20) }));
      if (p[2]) {
        layer.appendChild(circle({ "class": "crown", "data-square": p[0], cx: c[0], cy: c[1],
          r: cell * 0.16, fill: "none", stroke: "#d4af37", "stroke-width": cell / 12 }));
      }
    });
    leds.forEach(function (e) { layer.appendChild(e); });  // the rings stay on top
  }
  function drawLast(svg, from, to) {
    var layer = svg.querySelector("g.b");
    if (!layer) { return; }
    layer.querySelectorAll("rect.last").forEach(function (e) { e.remove(); });
    [from, to].forEach(function (name) {
      var rect = name && layer.querySelector('rect[data-sq="' + name + '"]');
      if (!rect) { return; }
      var mark = document.createElementNS(SVG, "rect"), w = +rect.getAttribute("width");
      mark.setAttribute("class", "last");
      mark.setAttribute("x", +rect.getAttribute("x") + 1.5);
      mark.setAttribute("y", +rect.getAttribute("y") + 1.5);
      mark.setAttribute("width", w - 3);
      mark.setAttribute("height", w - 3);
      mark.setAttribute("fill", "none");
      mark.setAttribute("stroke", "#3a7bd5");
      mark.setAttribute("stroke-width", 3);
      rect.after(mark);
    });
  }
  function drawLeds(svg, frame) {
    var layer = svg.querySelector("g.b");
    if (!layer) { return; }
    layer.querySelectorAll(".led").forEach(function (e) { e.remove(); });
    Object.keys(frame).forEach(function (name) {
      var led = frame[name], rect = layer.querySelector('rect[data-sq="' + name + '"]');
      if (!rect || !led || led[0] === "off") { return; }
      var c = centre(rect);
      layer.appendChild(circle({ "class": "led " + led[1] + " " + led[0], cx: c[0], cy: c[1],
        r: c[2] * 0.45, fill: "none", stroke: ROLES[led[1]] || "#ffffff",
        "stroke-width": c[2] / 10 }));
    });
  }

  // -- applying a message -------------------------------------------------------------------
  function setText(box, selector, text) {
    var e = box.querySelector(selector);
    if (e) { e.textContent = text; }
    return e;
  }
  function addMove(list, move) {
    // The move list as PDN writes it: one line a move number.
    var last = list.lastElementChild, first = move.ply % 2 === 1;
    if (first || !last) {
      last = document.createElement("li");
      ["n", "m", "m"].forEach(function (k) {
        var s = document.createElement("span");
        s.className = k;
        last.appendChild(s);
      });
      last.children[0].textContent = Math.floor((move.ply + 1) / 2) + ".";
      list.appendChild(last);
    }
    last.children[first ? 1 : 2].textContent = move.pdn;
    list.scrollTop = list.scrollHeight;
  }
  function apply(box, data) {
    if (data.html !== undefined) { box.innerHTML = data.html; translate(box); }
    var svg = box.querySelector("svg.diagram");
    (data.moves || []).forEach(function (move) {
      var list = box.querySelector("ol.moves");
      if (list) { addMove(list, move); }
    });
    var move = data.moves && data.moves[data.moves.length - 1];
    if (move) {
      if (svg && move.fen) { drawPosition(svg, move.fen); drawLast(svg, move.from, move.to); }
      setText(box, ".last-move", move.label);
      if (move.fen) { setText(box, ".turn", t(move.fen.charAt(0) === "W" ? "white" : "black")); }
    }
    if (data.leds && svg) { drawLeds(svg, data.leds); }
    if (data.state) {
      var state = setText(box, ".state", t(data.state));
      if (state) { state.className = "state state-" + data.state_key; }
    }
    var said = box.querySelector(".messages");
    if (said && data.say) {
      data.say.forEach(function (text) {
        var quiet = said.querySelector(".quiet");
        if (quiet) { quiet.remove(); }
        var li = document.createElement("li");
        li.textContent = text;
        said.appendChild(li);
      });
      while (said.children.length > 12) { said.firstElementChild.remove(); }
    }
  }
  function applyAlive(box, data) {
    var badge = box.querySelector(".alive"), seen = box.querySelector(".seen");
    if (badge) {
      badge.textContent = t(data.online ? "online" : "offline");
      badge.className = "alive " + (data.online ? "on" : "off");
    }
    if (seen) { seen.textContent = seenText(data); seen.hidden = data.online; }
    box.classList.toggle("offline", !data.online);
  }

  // -- the feed ---------------------------------------------------------------------------
  function follow(root) {
    var cursor = parseCursor(root.dataset.cursor, {});
    var source = null;
    function box(board) {
      if (root.id === "panel") { return board === root.dataset.board ? root : null; }
      var card = document.getElementById("board-" + board);
      if (!card) {
        var empty = root.querySelector(".empty");
        if (empty) { empty.remove(); }
        card = document.createElement("article");
        card.className = "card";
        card.id = "board-" + board;
        card.dataset.board = board;
        root.appendChild(card);
      }
      return card;
    }
    function open() {
      var url = root.dataset.feed, text = formatCursor(cursor);
      if (text) { url += (url.indexOf("?") < 0 ? "?" : "&") + "cursor=" + encodeURIComponent(text); }
      source = new EventSource(url);
      window.draughtsboardFeed = source;
      // Reconnect with the whole cursor ourselves (the browser would send only the last
      // message's id, which on the hall names one board).
      source.addEventListener("error", function () {
        source.close();
        setTimeout(open, 1000 + Math.random() * 1000);
      });
      source.addEventListener("board", function (message) {
        var data = JSON.parse(message.data), target = box(data.board);
        if (target) { apply(target, data); }
        parseCursor(message.lastEventId, cursor);
      });
      source.addEventListener("alive", function (message) {
        var data = JSON.parse(message.data), target = box(data.board);
        if (target) { applyAlive(target, data); }
      });
      source.addEventListener("reload", function () { source.close(); window.location.reload(); });
    }
    open();
  }

  // -- controls -------------------------------------------------------------------------------
  function controls() {
    var status = document.getElementById("status"), ask = document.getElementById("confirm");
    function send(form, submitter) {
      var body = new URLSearchParams(new FormData(form));
      if (submitter && submitter.name) { body.set(submitter.name, submitter.value); }
      fetch(form.action, { method: "POST", body: body, credentials: "same-origin",
                           headers: { "Accept": "application/json" } })
        .then(function (r) { return r.json(); })
        .then(function (reply) { if (status) { status.textContent = reply.message; } })
        .catch(function () { if (status) { status.textContent = t("not sent: no connection"); } });
    }
    document.querySelectorAll(".control form").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        var submitter = event.submitter;
        if (ask && submitter && submitter.dataset.confirm) {
          // Resign, new game and a draw offer are asked again before they are sent.
          document.getElementById("confirm-text").textContent = submitter.dataset.confirm;
          ask.hidden = false;
          document.getElementById("confirm-yes").onclick = function () {
            ask.hidden = true;
            send(form, submitter);
          };
          document.getElementById("confirm-no").onclick = function () { ask.hidden = true; };
          document.getElementById("confirm-yes").focus();
          return;
        }
        send(form, submitter);
      });
    });
  }
  function flip() {
    var buttons = document.querySelectorAll("button.flip");
    function set(on) {
      document.body.classList.toggle("flipped", on);
      buttons.forEach(function (b) { b.setAttribute("aria-pressed", on ? "true" : "false"); });
      try { window.localStorage.setItem("draughtsboard-flip", on ? "1" : ""); } catch (e) { /* private mode */ }
    }
    var stored = "";
    try { stored = window.localStorage.getItem("draughtsboard-flip") || ""; } catch (e) { /* private mode */ }
    set(stored === "1");
    buttons.forEach(function (b) {
      b.addEventListener("click", function () { set(!document.body.classList.contains("flipped")); });
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
    flip();
    var root = document.getElementById("hall") || document.getElementById("panel");
    if (root) { follow(root); }
    controls();
  });
})();
