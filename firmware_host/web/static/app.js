// draughtsboard web: live updates through Server-Sent Events, and control without a reload.
// No framework, no build step. The feed sends what changed, as small JSON (docs/web.md): the
// moves (with the position after them), the LED frame, the state, the board's sentences, the
// service's liveness; a whole card or panel ("html") only when a game starts, is taken back or
// ends. Every message carries the stream ids of what it delivered; the page keeps them (its
// cursor) and reconnects with them, so nothing is missed and nothing repeated.
"use strict";
(function () {
  var PIECES = { white: ["#fafafa", "#555"], black: ["#1c1c1c", "#999"] };
  // The ring colour of each kind of light, from the table of roles
  // (firmware_host/feedback/roles.py) as the page carries it in <body data-rings>.
  var ROLES = {};
  try { ROLES = JSON.parse(document.body.dataset.rings || "{}"); } catch (e) { ROLES = {}; }
  var SVG = "http://www.w3.org/2000/svg";

  // -- the viewer's language ----------------------------------------------------------------
  // The page carries its words in the viewer's language as JSON in <body data-words> (English
  // -> translated; empty for English): what the script writes and what a whole card or panel
  // from the feed (drawn once, in English, for every viewer) says, is put in those words.
  var WORDS = {};
  try { WORDS = JSON.parse(document.body.dataset.words || "{}"); } catch (e) { WORDS = {}; }
  // The page's language (a key of the board's languages: "ru", "pt_BR").
  var LANG = document.body.dataset.lang || "en";
  function t(text) { return Object.prototype.hasOwnProperty.call(WORDS, text) ? WORDS[text] : text; }
  // A board's sentence comes in every language ({"en": ..., "ru": ...}): the viewer's.
  function said(texts) {
    if (typeof texts === "string") { return texts; }
    return (texts && (texts[LANG] || texts.en)) || "";
  }
  function translate(box) {
    box.querySelectorAll("*").forEach(function (e) {
      if (e.dataset && e.dataset.said) {
        try { e.textContent = said(JSON.parse(e.dataset.said)) || e.textContent; } catch (x) { }
        return;
      }
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

  // The key to the lights under the board (templates/panel.html, web/lights.py): each kind
  // lit now, once, in the key's order, in the viewer's words.
  function drawLights(box, frame) {
    var list = box.querySelector("ul.lights"), head = box.querySelector(".lights-head");
    if (!list) { return; }
    var kinds = [], shown = {};
    try { kinds = JSON.parse(list.dataset.lights || "[]"); } catch (e) { kinds = []; }
    Object.keys(frame).forEach(function (name) {
      var led = frame[name];
      if (led && led[0] !== "off") { shown[led[1]] = true; }
    });
    list.textContent = "";
    kinds.forEach(function (kind) {
      if (!shown[kind[0]]) { return; }
      var item = document.createElement("li"), ring = document.createElementNS(SVG, "svg");
      var words = document.createElement("span");
      item.dataset.role = kind[0];
      var square = document.createElementNS(SVG, "rect");
      [["class", "ring"], ["width", 18], ["height", 18], ["viewBox", "0 0 18 18"],
        ["aria-hidden", "true"]].forEach(function (a) { ring.setAttribute(a[0], a[1]); });
      [["width", 18], ["height", 18], ["fill", "#8b5a2b"]].forEach(function (a) {
        square.setAttribute(a[0], a[1]);
      });
      ring.append(square, circle({ cx: 9, cy: 9, r: 6, fill: "none", stroke: kind[1],
        "stroke-width": 3 }));
      words.textContent = t(kind[2]);
      item.append(ring, " ", words);
      list.appendChild(item);
    });
    list.hidden = !list.children.length;
    if (head) { head.hidden = list.hidden; }
  }

  // -- the clocks ---------------------------------------------------------------------------
  // A clock box (templates/clocks.html) holds both times as the server last read them
  // (data-clock, or a feed message's "clock"); the page counts the running side down from the
  // moment it got them, with its own timer: the server sends a reading when the clock changes.
  function clockText(seconds) {
    var whole = Math.max(0, Math.floor(seconds + 1e-9));
    var h = Math.floor(whole / 3600), m = Math.floor(whole / 60) % 60, s = whole % 60;
    var mm = h ? (m < 10 ? "0" : "") + m : String(m);
    return (h ? h + ":" : "") + mm + ":" + (s < 10 ? "0" : "") + s;
  }
  function drawClock(box) {
    if (!box._clock) {
      try { box._clock = JSON.parse(box.dataset.clock || "null"); } catch (e) { box._clock = null; }
      box._at = Date.now();
      if (!box._clock) { return; }
    }
    // Paused is said while a side's time would run (not after the game: the clock stopped).
    var data = box._clock, held = data.paused || !data.running, paused = !!data.paused && !!data.running;
    var elapsed = held ? 0 : (Date.now() - box._at) / 1000;
    box.hidden = false;
    box.classList.toggle("paused", paused);
    var note = box.querySelector(".held");
    if (note) { note.hidden = !paused; }
    ["white", "black"].forEach(function (side) {
      var p = box.querySelector(".clock-" + side);
      if (!p) { return; }
      var running = side === data.running, left = Math.max(0, data[side] - (running ? elapsed : 0));
      setText(p, ".time", clockText(left));
      p.classList.toggle("running", running);
      p.classList.toggle("low", running && left < 60);
      p.classList.toggle("flagged", left <= 0);
      p.querySelector(".flag").hidden = left > 0;
      p.querySelector(".run").hidden = !running || !!data.paused;
    });
  }
  function setClock(box, data) {
    if (!box) { return; }
    box._clock = data;
    box._at = Date.now();
    drawClock(box);
  }
  function tickClocks() {
    // A board that went offline keeps its clock as last drawn (its service holds it).
    document.querySelectorAll(".clocks").forEach(function (box) {
      if (!box.closest(".offline")) { drawClock(box); }
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
    if (data.leds && svg) { drawLeds(svg, data.leds); drawLights(box, data.leds); }
    if (data.clock) { setClock(box.querySelector(".clocks"), data.clock); }
    if (data.state) {
      var state = setText(box, ".state", t(data.state));
      if (state) { state.className = "state state-" + data.state_key; }
    }
    var list = box.querySelector(".messages");
    if (list && data.say) {
      data.say.forEach(function (texts) {
        var quiet = list.querySelector(".quiet");
        if (quiet) { quiet.remove(); }
        var li = document.createElement("li");
        li.textContent = said(texts);
        list.appendChild(li);
      });
      while (list.children.length > 12) { list.firstElementChild.remove(); }
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
  function listen(root, onBoard, onAlive) {
    // The feed of root's boards (data-feed), resumed after its cursor (data-cursor).
    var cursor = parseCursor(root.dataset.cursor, {});
    var source = null;
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
        onBoard(JSON.parse(message.data));
        parseCursor(message.lastEventId, cursor);
      });
      source.addEventListener("alive", function (message) { onAlive(JSON.parse(message.data)); });
      source.addEventListener("reload", function () { source.close(); window.location.reload(); });
    }
    // A page left for another closes its feed (a page the browser keeps for "back" would hold
    // its connection: a browser opens only six to one site); shown again, it resumes.
    window.addEventListener("pagehide", function () { if (source) { source.close(); } });
    window.addEventListener("pageshow", function (event) { if (event.persisted) { open(); } });
    open();
  }
  function follow(root) {
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
    listen(root, function (data) {
      var target = box(data.board);
      if (target) { apply(target, data); }
    }, function (data) {
      var target = box(data.board);
      if (target) { applyAlive(target, data); }
    });
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
  // -- the arbiter's console (/arbiter) ---------------------------------------------------
  // Every decision is asked again (what it will do, in words) before it is sent; the reply is
  // said in the status line; the boards follow the hall's feed (clocks, states) and are read
  // again from /arbiter/state.json when a game changes, and after each decision.
  function arbiter(root) {
    var status = document.getElementById("arb-status"), ask = document.getElementById("arb-confirm");
    var yes = document.getElementById("arb-confirm-yes"), no = document.getElementById("arb-confirm-no");
    var csrf = root.dataset.csrf, reading = false, again = false, waiting = null;
    // A board's "online" comes from two places: the feed's alive news and each state read. A
    // read begun before a board's newest alive news is older than it and leaves its badge be.
    var aliveNews = 0, aliveAt = {};
    // Replies and the audit list in the page's language (it may have been opened with ?lang=).
    var lang = encodeURIComponent(document.documentElement.lang || "en");
    function say(text, bad) {
      status.textContent = text;
      status.classList.toggle("bad", !!bad);
    }
    function showForm(card, selector, shown, gameId) {
      var form = card.querySelector(selector);
      if (!form) { return; }
      form.hidden = !shown;
      var field = form.querySelector("input[name=game_id]");
      if (field) { field.value = gameId || ""; }
    }
    function name(player) { return player === "White" || player === "Black" ? t(player) : player; }
    // The filters: a status (its button) and words (the board or a player's name).
    var filterStatus = "", filterFind = document.getElementById("arb-find");
    function filter() {
      var words = filterFind ? filterFind.value.trim().toLowerCase() : "", shown = 0, all = 0;
      var counts = {};
      root.querySelectorAll(".arb-board").forEach(function (card) {
        all += 1;
        counts[card.dataset.status] = (counts[card.dataset.status] || 0) + 1;
        var show = (!filterStatus || card.dataset.status === filterStatus) &&
          (!words || (card.dataset.find || "").indexOf(words) >= 0);
        card.hidden = !show;
        if (show) { shown += 1; }
      });
      document.querySelectorAll(".arb-filters .filter").forEach(function (button) {
        var key = button.dataset.status, count = key ? (counts[key] || 0) : all;
        setText(button, ".count", String(count));
        button.hidden = !!key && !count && key !== filterStatus;
        button.setAttribute("aria-pressed", key === filterStatus ? "true" : "false");
      });
      setText(document, "#arb-shown", shown === all ? "" :
        t("Showing {shown} of {count} boards.").replace("{shown}", shown).replace("{count}", all));
    }
    document.querySelectorAll(".arb-filters .filter").forEach(function (button) {
      button.addEventListener("click", function () { filterStatus = button.dataset.status; filter(); });
    });
    if (filterFind) { filterFind.addEventListener("input", filter); }
    function applyBoard(card, b, began) {
      setText(card, ".white-name", name(b.white));
      setText(card, ".black-name", name(b.black));
      var round = card.querySelector(".round");
      if (round) { round.hidden = !b.round; setText(round, ".round-n", b.round || ""); }
      var pairing = card.querySelector(".pairing");
      if (pairing) {
        pairing.hidden = !b.pairing;
        // The names of the pairing waiting, when the card's players are others (a game going on).
        var others = b.pairing && (b.pairing.white !== b.white || b.pairing.black !== b.black);
        setText(pairing, ".pairing-names", others ? ": " + b.pairing.white + " – " + b.pairing.black : "");
      }
      setText(card, ".last-moves", b.last_moves || "–");
      var state = setText(card, ".state", t(b.state_text));
      if (state) { state.className = "state state-" + b.state; }
      var decided = b.decision ? DECISIONS[b.decision.kind + ":" + b.decision.side] : "";
      setText(card, "dd.result", decided ? t(decided) : t(b.result_text) +
        (b.termination_text ? " (" + t(b.termination_text) + ")" : ""));
      setText(card, ".said", said(b.said) || "–");
      card.dataset.status = b.status;
      card.dataset.find = (b.board + " " + b.white + " " + b.black).toLowerCase();
      card.className = card.className.replace(/ ?status-\S+/, "") + " status-" + b.status;
      if (!(aliveAt[b.board] > began)) { applyAlive(card, { online: b.online, seen: null }); }
      var box = card.querySelector(".clocks"), none = card.querySelector(".no-clock");
      if (b.clock) { setClock(box, b.clock); } else if (box) { box.hidden = true; box._clock = null; }
      if (none) { none.hidden = !!b.clock; }
      showForm(card, ".arb-add-time", !b.finished && !!b.clock);
      showForm(card, ".arb-adjudicate", !b.finished && !!b.game_id, b.game_id);
      showForm(card, ".arb-correct", b.finished, b.game_id);
      showForm(card, ".arb-hold", !b.finished && !!b.clock);
      showForm(card, ".arb-correct-move", b.plies > 0 && !!b.game_id, b.game_id);
      showForm(card, ".arb-decide", !!b.of_round && !b.decision && !b.played && !b.finished);
      showForm(card, ".arb-carry", !!b.game_id && !b.finished && b.plies > 0, b.game_id);
      card.dataset.first = b.first || "white";
      var fix = card.querySelector(".arb-correct-move");
      if (fix) {
        // A finished game's correction says what becomes of its result (kept by default).
        fix.dataset.finished = b.finished ? "1" : "";
        fix.dataset.result = t(b.result_text) + (b.termination_text ? " (" + t(b.termination_text) + ")" : "");
        var over = fix.querySelector(".over"), choice = fix.querySelector("select[name=result]");
        if (over) { over.hidden = !b.finished; }
        if (choice) { choice.disabled = !b.finished; }
      }
      var ply = card.querySelector(".arb-correct-move input[name=ply]");
      if (ply && b.plies > 0) { ply.max = b.plies; }
    }
    var DECISIONS = {};
    document.querySelectorAll(".arb-decide select[name=decision] option").forEach(function (o) {
      DECISIONS[o.value] = o.textContent;
    });
    function applyAudit(entries) {
      var list = document.getElementById("arb-audit");
      if (!list) { return; }
      list.textContent = "";
      entries.forEach(function (e) {
        var li = document.createElement("li"), when = document.createElement("time");
        when.textContent = new Date(e.time * 1000).toISOString().slice(11, 19);
        li.appendChild(when);
        li.appendChild(document.createTextNode(" " + e.text + (e.reason ? " (" + e.reason + ")" : "")));
        list.appendChild(li);
      });
    }
    function applySessions(sessions) {
      // A session revoked (here or elsewhere) leaves the list; this browser's own: the page
      // asks for the arbiter code again at its next read.
      var list = document.getElementById("arb-sessions");
      if (!list) { return; }
      var open = {};
      sessions.forEach(function (s) { open[s.id] = true; });
      list.querySelectorAll("li[data-session]").forEach(function (li) {
        if (!open[li.dataset.session]) { li.remove(); }
      });
      if (sessions.length > list.children.length) { window.location.reload(); }  // a new one
    }
    function applyRounds(rounds) {
      // The round the start button offers: the newest waiting on the boards (unless the
      // arbiter is typing another).
      var field = document.getElementById("arb-round"), note = document.getElementById("arb-rounds");
      if (field && document.activeElement !== field && rounds.length) {
        field.value = rounds[rounds.length - 1];
        showRound();
      }
      if (note) {
        note.textContent = rounds.length
          ? t("Waiting on the boards: round {rounds}.").replace("{rounds}", rounds.join(", "))
          : t("No round waits on the boards: import its pairing list above (or draughtsboard round import).");
      }
    }
    function showRound() {
      var field = document.getElementById("arb-round");
      var button = document.getElementById("arb-start-round");
      if (!field || !button) { return; }
      // With no number the button says what it does, not "Start round " and a blank.
      var number = field.value.trim(), some = button.querySelector(".round-some"),
        none = button.querySelector(".round-none");
      setText(button, ".round-n", number);
      if (some && none) { some.hidden = !number; none.hidden = !!number; }
    }
    function read() {
      // At most one read at a time; one more after it when asked meanwhile.
      if (reading) { again = true; return; }
      reading = true;
      var began = aliveNews;
      fetch("/arbiter/state.json?lang=" + lang, { credentials: "same-origin",
        headers: { "Accept": "application/json" } })
        .then(function (r) { return r.json(); })
        .then(function (state) {
          if (state.csrf) { csrf = state.csrf; }
          (state.boards || []).forEach(function (b) {
            var card = document.getElementById("arb-" + b.board);
            if (!card) { window.location.reload(); return; }  // a board new to the round
            applyBoard(card, b, began);
          });
          if (state.audit) { applyAudit(state.audit); }
          if (state.sessions) { applySessions(state.sessions); }
          if (state.rounds) { applyRounds(state.rounds); }
          filter();
        })
        .catch(function () { /* the feed or the next decision reads again */ })
        .then(function () {
          reading = false;
          if (again) { again = false; read(); }
        });
    }
    function readSoon() {
      if (!waiting) { waiting = setTimeout(function () { waiting = null; read(); }, 300); }
    }
    function correction(form, fields) {
      // A corrected move says what happens: a finished game's result kept, changed or
      // withdrawn, and whose clock stays held until released ({side}: the side to move after
      // the corrected ply, from the side that moved first).
      var card = form.closest(".arb-board"), first = (card && card.dataset.first) || "white";
      var ply = parseInt(fields.get("ply") || "0", 10), other = first === "white" ? "black" : "white";
      var side = ply % 2 === 1 ? other : first;
      var choice = form.dataset.finished ? (fields.get("result") || "keep") : "";
      var ask = !choice ? form.dataset.ask : choice === "keep" ? form.dataset.askKeep
        : choice === "withdraw" ? form.dataset.askWithdraw : form.dataset.askChange;
      var select = form.querySelector("select[name=result]");
      var chosen = select && select.selectedIndex >= 0 ? select.options[select.selectedIndex].text : "";
      return (ask || "").replace("{side}", form.dataset[side] || side)
        .replace("{result}", form.dataset.result || "").replace("{new}", chosen);
    }
    function question(form, button) {
      // The question (the button's, else the form's) with the choices in words: {board},
      // {side}, {seconds}, {result}, {reason}.
      var fields = new FormData(form);
      var text = form.classList.contains("arb-correct-move") ? correction(form, fields)
        : (button && button.dataset.ask) || form.dataset.ask || "";
      ["side", "result", "decision"].forEach(function (name) {
        var select = form.querySelector("select[name=" + name + "]");
        var words = select ? select.options[select.selectedIndex].text : "";
        text = text.replace("{" + name + "}", words);
      });
      var reason = (fields.get("reason") || "").trim();
      return text.replace("{board}", fields.get("board") || "")
        .replace("{seconds}", fields.get("seconds") || "")
        .replace("{ply}", fields.get("ply") || "").replace("{move}", (fields.get("move") || "").trim())
        .replace("{round}", (fields.get("round") || "").trim())
        .replace("{to}", (fields.get("to") || "").trim())
        .replace("{reason}", reason ? " " + t("Reason: {reason}.").replace("{reason}", reason) : "");
    }
    function decisionId() {
      // Each decision sent names itself: the same request again decides nothing twice.
      if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
      var bytes = new Uint8Array(16);
      window.crypto.getRandomValues(bytes);
      return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
    }
    function send(form, button) {
      var body = new URLSearchParams(new FormData(form));
      body.set("csrf", csrf);
      body.set("decision_id", decisionId());
      say(t("sending…"));
      var url = ((button && button.getAttribute("formaction")) || form.action) + "?lang=" + lang;
      fetch(url, { method: "POST", body: body,
        credentials: "same-origin", headers: { "Accept": "application/json" } })
        .then(function (r) {
          return r.text().then(function (text) {
            try { return JSON.parse(text); } catch (e) { return { error: text || r.statusText }; }
          });
        })
        .then(function (reply) {
          if (reply.ok) {
            say(reply.message || t("Sent to {board}.").replace("{board}",
              new FormData(form).get("board") || t("the boards")));
            form.querySelectorAll("input[name=reason]").forEach(function (i) { i.value = ""; });
          } else {
            var text = t("Not done: {error}").replace("{error}", reply.error);
            say(text, true);
            if (reply.answers) { keep(text); }  // the boards answered: kept until dismissed
          }
          read();
        })
        .catch(function () { say(t("Not sent: no connection to the web service."), true); })
        .then(function () { if (button) { button.focus(); } });
    }
    function keep(text) {
      // A refusal (or a board not reached) stays on the console until it is dismissed.
      var list = document.getElementById("arb-refusals");
      if (!list) { return; }
      var item = document.createElement("li"), words = document.createElement("span");
      var dismiss = document.createElement("button");
      words.textContent = text;
      dismiss.type = "button";
      dismiss.textContent = list.dataset.dismiss || t("Dismiss");
      dismiss.addEventListener("click", function () { list.removeChild(item); });
      item.appendChild(words);
      item.appendChild(document.createTextNode(" "));
      item.appendChild(dismiss);
      list.appendChild(item);
    }
    function close(button) {
      ask.hidden = true;
      yes.onclick = null;
      if (button) { button.focus(); }
    }
    root.parentNode.querySelectorAll("form.arb-form").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        var button = event.submitter || form.querySelector("button[type=submit]");
        document.getElementById("arb-confirm-text").textContent = question(form, button);
        ask.hidden = false;
        yes.onclick = function () { close(null); send(form, button); };
        no.onclick = function () { close(button); say(t("Cancelled: nothing was sent.")); };
        yes.focus();
      });
    });
    var roundField = document.getElementById("arb-round");
    if (roundField) { roundField.addEventListener("input", showRound); }
    ask.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { no.click(); }
    });
    // The import: the file read here (its bytes, as base64: the server reads its encoding),
    // previewed, then imported once the preview is confirmed.
    var importForm = document.getElementById("arb-import-form");
    var preview = document.getElementById("arb-import-preview"), previewed = null;
    function post(url, body) {
      body.set("csrf", csrf);
      body.set("decision_id", decisionId());
      return fetch(url + "?lang=" + lang, { method: "POST", body: body, credentials: "same-origin",
        headers: { "Accept": "application/json" } })
        .then(function (r) {
          return r.text().then(function (text) {
            try { return JSON.parse(text); } catch (e) { return { error: text || r.statusText }; }
          });
        });
    }
    function showPreview(reply) {
      setText(preview, ".round-name", reply.round || "");
      setText(preview, ".order", reply.order ? "(" + reply.order + ")" : "");
      [[".rows", reply.rows || []], [".notices", (reply.problems || []).concat(reply.notices || [])]]
        .forEach(function (pair) {
          var list = preview.querySelector(pair[0]);
          list.textContent = "";
          pair[1].forEach(function (line) {
            var li = document.createElement("li");
            li.textContent = line;
            list.appendChild(li);
          });
        });
      document.getElementById("arb-import-confirm").hidden = !reply.ok;
      preview.hidden = false;
    }
    function importBody(bytes, confirm) {
      var body = new URLSearchParams(new FormData(importForm));
      body.delete("file");
      body.set("data", bytes);
      if (confirm) { body.set("confirm", "1"); body.set("digest", confirm); }
      return body;
    }
    if (importForm) {
      importForm.addEventListener("submit", function (event) {
        event.preventDefault();
        var file = document.getElementById("arb-import-file").files[0];
        if (!file) { return; }
        var reader = new FileReader();
        reader.onload = function () {
          var bytes = String(reader.result).split(",", 2)[1] || "";
          say(t("sending…"));
          post("/arbiter/import", importBody(bytes, null)).then(function (reply) {
            previewed = reply.ok ? { bytes: bytes, digest: reply.digest } : null;
            if (reply.ok) { say(t("Look at the boards below, then import it.")); } else {
              say(t("Not done: {error}").replace("{error}", reply.error ||
                (reply.problems || []).join("; ")), true);
            }
            if (reply.rows || reply.problems) { showPreview(reply); }
          }).catch(function () { say(t("Not sent: no connection to the web service."), true); });
        };
        reader.readAsDataURL(file);
      });
      document.getElementById("arb-import-confirm").addEventListener("click", function () {
        if (!previewed) { return; }
        post("/arbiter/import", importBody(previewed.bytes, previewed.digest)).then(function (reply) {
          if (reply.ok) {
            say(reply.message);
            preview.hidden = true;
            previewed = null;
            importForm.reset();
            window.setTimeout(function () { window.location.reload(); }, 1500);
          } else { say(t("Not done: {error}").replace("{error}", reply.error || ""), true); }
        }).catch(function () { say(t("Not sent: no connection to the web service."), true); });
      });
      document.getElementById("arb-import-cancel").addEventListener("click", function () {
        preview.hidden = true;
        previewed = null;
        say(t("Cancelled: nothing was sent."));
      });
    }
    filter();
    listen(root, function (data) {
      var card = document.getElementById("arb-" + data.board);
      if (card && data.html !== undefined) {
        // The hall's card of the board: its diagram is this card's too.
        var box = document.createElement("div"), shown = card.querySelector(".arb-diagram");
        box.innerHTML = data.html;
        var svg = box.querySelector("svg.diagram");
        if (svg && shown) { shown.textContent = ""; shown.appendChild(svg); }
      }
      if (!card || data.html !== undefined) { readSoon(); return; }
      if (data.clock) { setClock(card.querySelector(".clocks"), data.clock); }
      if (data.state) {
        var state = setText(card, ".state", t(data.state));
        if (state) { state.className = "state state-" + data.state_key; }
      }
    }, function (data) {
      aliveNews += 1;
      aliveAt[data.board] = aliveNews;
      var card = document.getElementById("arb-" + data.board);
      if (card) { applyAlive(card, data); }
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
    // The replay: the current move in view in its list (the list scrolls, not the page), and
    // the arrow keys step through the game.
    var list = document.querySelector(".replay ol.moves");
    var current = list && list.querySelector(".current");
    if (current) {
      var row = current.parentElement;
      list.scrollTop = row.offsetTop - list.offsetTop - (list.clientHeight - row.offsetHeight) / 2;
    }
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
    var boards = document.getElementById("arb-boards");
    if (boards) { arbiter(boards); }
    tickClocks();
    window.setInterval(tickClocks, 250);
  });
})();
