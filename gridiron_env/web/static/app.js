// Gridiron in a browser: plain JavaScript, no build step. The server runs the engine and the agents;
// this page draws the view it is sent (only what the person's team may see) and offers only the legal
// actions listed in it (view.options). Squares are absolute code squares (row * 18 + lane, row 0 at the top).
"use strict";

const SQ = 24, MX = 30, MY = 10, ROWS = 30, LANES = 18, EZ = 3;
const W = MX * 2 + LANES * SQ, H = MY * 2 + ROWS * SQ;
const params = new URLSearchParams(location.search);
const FRAME_MS = params.has("speed") ? Math.max(0, Number(params.get("speed")) || 0) : 140;
const $ = (id) => document.getElementById(id);

const G = {
  ws: null, tables: null, opponents: [], game: null, mode: null, seats: ["", ""], humanTeam: null,
  view: null, caption: null, selected: null, busy: false, queue: [], lines: "line", offenceUp: false,
  replay: null, watchTimer: null, paused: false, pending: null, carried: [0, 0], lastRolls: -1, record: null,
  nextId: 1,
};
window.gridiron = G;  // (for tests and the curious)

// ------------------------------------------------------------------------------------------ socket

function connect() {
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
  G.ws = new WebSocket(url);
  G.ws.onopen = () => { $("connection").textContent = "connected"; send({ type: "hello" }); };
  G.ws.onclose = () => { $("connection").textContent = "disconnected (reload the page)"; setState("closed"); };
  G.ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
}

function send(msg) {
  msg.id = G.nextId++;
  G.ws.send(JSON.stringify(msg));
}

function onMessage(msg) {
  if (msg.type === "error") {
    if (G.stopping && msg.request === "advance") return;  // (an advance that crossed the stop on the wire)
    showError(msg.error); G.busy = false;
    setState(G.view && (G.view.over || G.view.stopped) ? "over" : "idle");
    return;
  }
  if (msg.type === "welcome") { welcome(msg); return; }
  if (msg.type === "started") { started(msg); return; }
  if (msg.type === "frames") { enqueue(msg.frames, msg.more); return; }
  if (msg.type === "record") { gotRecord(msg.record); return; }
  if (msg.type === "replay") { startReplay(msg); return; }
  if (msg.type === "frame") { G.replay.index = msg.index; $("log").innerHTML = ""; showFrame(msg, true); G.busy = false; updateReplayBar(); setState("idle"); return; }
  if (msg.type === "closed") { return; }
}

function showError(text) {
  const target = $("game").hidden ? $("setup-error") : $("status");
  target.textContent = text;
  target.classList.add("error");
}

function setState(s) { document.body.dataset.state = s; }

// ------------------------------------------------------------------------------------------ setup

function welcome(msg) {
  G.tables = msg.tables;
  G.opponents = msg.opponents;
  for (const [id, def] of [["opponent", "bot:hard"], ["agent-one", "heuristic"], ["agent-two", "bot:hard"]]) {
    const sel = $(id);
    sel.innerHTML = "";
    for (const o of msg.opponents) {
      const opt = document.createElement("option");
      opt.value = o.spec; opt.textContent = o.label + (o.available ? "" : " (unavailable)");
      opt.disabled = !o.available;
      sel.appendChild(opt);
    }
    sel.value = def;
  }
  setState("setup");
}

function settingsFromForm() {
  const s = { mode: $("mode").value, target_score: Number($("target").value), specials: $("specials").checked,
              kick_mode: $("kick-mode").value };
  if (s.mode === "single") { s.team = $("team").value; s.opponent = $("opponent").value; }
  if (s.mode === "watch") { s.agents = [$("agent-one").value, $("agent-two").value]; }
  if (params.has("seed")) s.seed = Number(params.get("seed"));
  return s;
}

function started(msg) {
  G.game = msg.game; G.mode = msg.mode; G.seats = msg.seats; G.humanTeam = msg.human_team;
  G.replay = null; G.record = null; G.carried = [0, 0]; G.lastRolls = -1; G.paused = false; G.stopping = false;
  G.lastSteps = undefined;
  $("setup").hidden = true; $("game").hidden = false; $("replay").hidden = true;
  $("log").innerHTML = ""; $("download").hidden = true; $("watch-replay").hidden = true; $("stop").hidden = false;
  $("pause").hidden = msg.mode !== "watch"; $("pause").textContent = "Pause";
  $("status").classList.remove("error");
  enqueue(msg.frames, false);
}

// ------------------------------------------------------------------------------------------ frames

function enqueue(frames, more) {
  G.busy = true; setState("busy");
  G.queue.push(...frames);
  G.more = more;
  if (!G.playing) playQueue();
}

function playQueue() {
  G.playing = true;
  const frame = G.queue.shift();
  if (!frame) { G.playing = false; afterFrames(); return; }
  showFrame(frame, false);
  if (G.queue.length && FRAME_MS > 0) setTimeout(playQueue, FRAME_MS);
  else playQueue();
}

function afterFrames() {
  const v = G.view;
  if (v.over || v.stopped) { gameOver(); G.busy = false; setState("over"); return; }
  if ((G.mode === "watch" || G.more) && !G.stopping) {
    G.busy = false;
    if (G.mode === "watch" && G.paused) { setState("paused"); return; }
    setState("busy");
    clearTimeout(G.watchTimer);
    G.watchTimer = setTimeout(() => { G.busy = true; send({ type: "advance", game: G.game, steps: 8 }); },
                              G.mode === "watch" ? Math.max(FRAME_MS, 0) : 0);
    return;
  }
  G.busy = false;
  setState(v.options.length ? "idle" : "waiting");
}

function showFrame(frame, replay) {
  const v = frame.view;
  // Points carried into the last roll: read off the position right after it (points less the roll's);
  // a jump in a replay (not one action on) does not show that position, so it is unknown there.
  const consecutive = G.lastSteps === undefined || v.steps === G.lastSteps + 1 || v.steps === G.lastSteps;
  if (!consecutive) G.carried = null;
  else if (v.rolls !== G.lastRolls) {
    G.carried = v.rolled && v.rolls > 0 ? [0, 1].map((t) => Math.max(0, v.points[t] - v.rolled[t])) : [0, 0];
  }
  G.lastRolls = v.rolls; G.lastSteps = v.steps;
  G.view = v; G.caption = frame.caption; G.selected = null;
  if (frame.caption) logCaption(frame.caption, v);
  if (frame.caption && frame.caption.banners.length) showBanner(frame.caption.banners);
  document.body.dataset.phase = v.phase;
  document.body.dataset.steps = String(v.steps);
  render();
}

function logCaption(c, v) {
  const li = document.createElement("li");
  const who = c.team === 0 || c.team === 1 ? `team ${c.team === 0 ? "one" : "two"}` : "";
  li.textContent = `${who}: ${c.name}`;
  $("log").prepend(li);
  for (const b of c.banners) {
    const bl = document.createElement("li");
    bl.className = "banner-line"; bl.textContent = b.text;
    $("log").prepend(bl);
  }
  while ($("log").children.length > 300) $("log").lastChild.remove();
}

function showBanner(banners) {
  const el = $("banner");
  el.textContent = banners.map((b) => b.text).join(" · ");
  el.hidden = false;
  clearTimeout(G.bannerTimer);
  G.bannerTimer = setTimeout(() => { el.hidden = true; }, 1800);
}

// ------------------------------------------------------------------------------------------ geometry

function flipped() { return G.offenceUp && G.view && G.view.offence === 1; }
function disp(row, lane) { return flipped() ? [ROWS - 1 - row, LANES - 1 - lane] : [row, lane]; }
function squareXY(sq) {
  const [r, l] = disp(Math.floor(sq / LANES), sq % LANES);
  return [MX + l * SQ, MY + r * SQ];
}
function squareAt(x, y) {
  const l = Math.floor((x - MX) / SQ), r = Math.floor((y - MY) / SQ);
  if (l < 0 || l >= LANES || r < 0 || r >= ROWS) return -1;
  const [row, lane] = disp(r, l);
  return row * LANES + lane;
}
function playerOn(sq) { return G.view ? G.view.players.find((p) => p.square === sq) || null : null; }
function jersey(team) { return G.tables.jerseys[team]; }

// ------------------------------------------------------------------------------------------ drawing

function render() {
  const cv = $("field");
  if (cv.width !== W) { cv.width = W; cv.height = H; }
  const g = cv.getContext("2d");
  drawField(g);
  if (!G.view) return;
  drawLines(g);
  drawTargets(g);
  for (const p of G.view.players) drawPlayer(g, p);
  drawBadges(g);
  const b = G.view.ball;
  if (b.loose && b.square !== null && !b.hidden) drawLooseBall(g, b.square);
  renderPanel();
}

function rgb(hex, k) {
  const n = parseInt(hex.slice(1), 16);
  const c = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((x) => Math.round(Math.min(255, x * k)));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

function drawField(g) {
  g.fillStyle = "#265424"; g.fillRect(0, 0, W, H);
  for (let r = 0; r < ROWS; r++) {
    for (let l = 0; l < LANES; l++) {
      const [dr, dl] = disp(r, l);
      const x = MX + dl * SQ, y = MY + dr * SQ;
      const stripe = r % 2 === 0 ? [92, 158, 64] : [70, 134, 50];
      const check = (r + l) % 2 === 0 ? 5 : -5;
      let c = stripe.map((v) => v + check);
      if (r < EZ || r >= ROWS - EZ) {  // an end zone in the colour of the team that attacks it
        const team = r < EZ ? 0 : 1;
        const n = parseInt(jersey(team).slice(1), 16);
        const tc = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
        const shade = 1 + (check / 60) + (r % 2 === 0 ? 0.06 : -0.06);
        c = tc.map((v, i) => Math.max(0, Math.min(255, 0.82 * v * shade + 0.18 * c[i])));
      }
      g.fillStyle = `rgb(${c[0] | 0},${c[1] | 0},${c[2] | 0})`;
      g.fillRect(x, y, SQ, SQ);
    }
  }
  g.strokeStyle = "#fafafa"; g.lineWidth = 2;
  g.strokeRect(MX - 1, MY - 1, LANES * SQ + 2, ROWS * SQ + 2);
  for (const edge of [EZ, ROWS - EZ]) {  // goal lines
    const y = MY + (flipped() ? ROWS - edge : edge) * SQ;
    g.beginPath(); g.moveTo(MX, y); g.lineTo(MX + LANES * SQ, y); g.stroke();
  }
  g.fillStyle = "#fafafa"; g.font = "bold 11px system-ui, sans-serif"; g.textAlign = "center"; g.textBaseline = "middle";
  for (let r = 0; r < ROWS; r++) {  // row markers 4, 8, ..., 28 on both sides
    const [dr] = disp(r, 0);
    const y = MY + dr * SQ + SQ / 2;
    if ((r + 1) % 4 === 0) { g.fillText(String(r + 1), MX / 2, y); g.fillText(String(r + 1), W - MX / 2, y); }
    else { g.fillRect(MX - 6, y, 3, 1); g.fillRect(W - MX + 3, y, 3, 1); }
  }
}

function drawLines(g) {
  const v = G.view;
  if (v.over) return;
  const losTop = MY + disp(v.los_row, 0)[0] * SQ;
  const gainTop = MY + disp(v.line_to_gain, 0)[0] * SQ;
  const up = (v.offence === 0) !== flipped();  // the offence attacks up the picture
  if (G.lines === "tint") {
    g.fillStyle = "rgba(70,150,255,0.45)"; g.fillRect(MX, losTop, LANES * SQ, SQ);
    if (v.goal_to_go) {
      g.fillStyle = "#ffde00";
      const goalY = MY + (up ? EZ : ROWS - EZ) * SQ; g.fillRect(MX, goalY - 2, LANES * SQ, 4);
    } else { g.fillStyle = "rgba(255,222,0,0.5)"; g.fillRect(MX, gainTop, LANES * SQ, SQ); }
    return;
  }
  // lines: the LOS on its row's forward edge, the line to gain on the edge of its row nearest the LOS
  const losY = up ? losTop : losTop + SQ;
  let gainY = up ? gainTop + SQ : gainTop;
  if (v.goal_to_go) gainY = MY + (up ? EZ : ROWS - EZ) * SQ;
  g.fillStyle = "#4696ff"; g.fillRect(MX, losY - 2, LANES * SQ, 4);
  g.fillStyle = "#ffde00"; g.fillRect(MX, gainY - 2, LANES * SQ, 4);
}

function ellipse(g, cx, cy, rx, ry, fill, stroke) {
  g.beginPath(); g.ellipse(cx, cy, rx, ry, 0, 0, Math.PI * 2);
  if (fill) { g.fillStyle = fill; g.fill(); }
  if (stroke) { g.strokeStyle = stroke; g.lineWidth = 1.2; g.stroke(); }
}

function drawFootball(g, cx, cy, rx, ry) {
  ellipse(g, cx, cy, rx, ry, "#80461a", "#16161a");
  g.strokeStyle = "#fff"; g.lineWidth = 1;
  g.beginPath(); g.moveTo(cx, cy - ry * 0.5); g.lineTo(cx, cy + ry * 0.5); g.stroke();
  for (const k of [-0.3, 0, 0.3]) { g.beginPath(); g.moveTo(cx - rx * 0.45, cy + k * ry); g.lineTo(cx + rx * 0.45, cy + k * ry); g.stroke(); }
}

function drawStar(g, cx, cy, ro, ri) {
  g.beginPath();
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5, r = i % 2 === 0 ? ro : ri;
    g.lineTo(cx + r * Math.cos(a), cy + r * Math.sin(a));
  }
  g.closePath(); g.fillStyle = "#ffc81e"; g.fill(); g.strokeStyle = "#16161a"; g.lineWidth = 0.8; g.stroke();
}

function drawPlayer(g, p) {
  const [x, y] = squareXY(p.square);
  const cx = x + SQ / 2;
  g.save();
  g.beginPath(); g.rect(x, y, SQ, SQ); g.clip();
  if (p.strong) {  // a strong lineman burns a red glow, with a red rim on his square
    g.shadowColor = "rgba(255,40,20,0.95)"; g.shadowBlur = 9;
    g.strokeStyle = "#ff2814"; g.lineWidth = 2; g.strokeRect(x + 1, y + 1, SQ - 2, SQ - 2);
  }
  const shoulderRx = p.wide ? 0.48 * SQ : 0.31 * SQ;
  ellipse(g, cx, y + 1.1 * SQ, shoulderRx, 0.55 * SQ, jersey(p.team), "#16161a");
  g.shadowBlur = 0;
  ellipse(g, cx, y + 0.36 * SQ, 0.26 * SQ, 0.26 * SQ, G.tables.helmets[p.group], "#16161a");
  g.fillStyle = "#46464e"; g.fillRect(cx - 0.16 * SQ, y + 0.45 * SQ, 0.32 * SQ, 1.2);
  g.fillRect(cx - 0.16 * SQ, y + 0.54 * SQ, 0.32 * SQ, 1.2);
  if (p.star) drawStar(g, x + 0.2 * SQ, y + 0.79 * SQ, 0.2 * SQ, 0.085 * SQ);
  if (p.carrier) drawFootball(g, x + 0.79 * SQ, y + 0.66 * SQ, 0.185 * SQ, 0.3 * SQ);
  g.restore();
  if (G.selected === p.slot) { g.strokeStyle = "#fff"; g.lineWidth = 2; g.strokeRect(x + 1, y + 1, SQ - 2, SQ - 2); }
}

function drawLooseBall(g, sq) {
  const [x, y] = squareXY(sq);
  drawFootball(g, x + SQ / 2, y + SQ / 2, 0.22 * SQ, 0.36 * SQ);
}

function options() { return G.view && !G.replay ? G.view.options : []; }
function boardOptions(actor) {
  return options().filter((o) => o.actor === actor && (o.kind === "move" || o.kind === "gap" || o.kind === "follow"));
}

function drawTargets(g) {
  if (G.selected === null) return;
  g.font = "bold 11px system-ui, sans-serif"; g.textAlign = "center"; g.textBaseline = "middle";
  for (const o of boardOptions(G.selected)) {
    const [x, y] = squareXY(o.target);
    g.fillStyle = o.tackle ? "rgba(255,60,40,0.55)" : o.swap ? "rgba(190,90,255,0.5)" : "rgba(255,255,120,0.42)";
    g.fillRect(x + 2, y + 2, SQ - 4, SQ - 4);
    g.fillStyle = "#111";
    const label = o.kind === "gap" ? `gap ${o.cost}` : o.tackle ? `T${o.cost}` : String(o.cost);
    g.fillText(label, x + SQ / 2, y + SQ / 2);
  }
}

function drawBadges(g) {
  // push costs on the teammates the carrier may push (a ⇧ badge), once the carrier is selected
  const v = G.view;
  if (G.selected === null || v.ball.holder !== G.selected) return;
  g.font = "bold 10px system-ui, sans-serif"; g.textAlign = "center"; g.textBaseline = "middle";
  for (const o of options()) {
    if (o.kind !== "push") continue;
    const [x, y] = squareXY(o.target);
    g.fillStyle = "rgba(20,20,30,0.85)"; g.fillRect(x + SQ - 17, y, 17, 11);
    g.fillStyle = o.shove ? "#ff8a70" : "#9fe0ff";
    g.fillText("⇧" + o.cost, x + SQ - 8.5, y + 5.5);
  }
}

// ------------------------------------------------------------------------------------------ panel

const ORD = ["", "1st", "2nd", "3rd", "4th", "5th"];
const SPECIAL_NAMES = { lead_blocker: "Lead Blocker", ball_hawk: "Ball Hawk", sure_hands: "Sure Hands", speedy_qb: "Speedy QB" };

function renderPanel() {
  const v = G.view;
  for (const t of [0, 1]) {
    const el = $(`team-${t}`);
    el.querySelector(".swatch").style.background = jersey(t);
    el.querySelector(".name").textContent = `${t === 0 ? "one" : "two"}: ${G.seats[t] || ""}` + (v.offence === t && !v.over ? " · offence" : "");
    el.querySelector(".score").textContent = String(v.score[t]);
    const sp = v.specials[t];
    el.querySelector(".special-name").textContent = sp ? SPECIAL_NAMES[sp] : (v.specials_secret ? "secret until both pick" : "none");
    el.classList.toggle("to-act", v.to_act === t && !v.over);
    const row = $(`dice-${t}`);
    row.querySelector(".dice").textContent = v.rolls > 0 ? `${v.dice[t][0]}, ${v.dice[t][1]}` : "–";
    row.querySelector(".rolled").textContent = v.rolled ? String(v.rolled[t]) : "–";
    row.querySelector(".carried").textContent = v.rolled && G.carried ? String(G.carried[t]) : "–";
    row.querySelector(".points").textContent = String(v.points[t]);
  }
  const dist = v.goal_to_go ? "goal" : `${v.distance} row${v.distance === 1 ? "" : "s"}`;
  $("down").textContent = v.over ? `Final ${v.score[0]} – ${v.score[1]}` :
    `${ORD[v.down] || v.down + "th"} & ${dist} · LOS row ${v.los_row + 1} · line to gain row ${v.line_to_gain + 1}` +
    (v.overtime ? ` · overtime ${v.overtime_points[0]}-${v.overtime_points[1]}` : "");
  $("turn").textContent = v.over ? (v.winner === null ? "No winner (step cap)" : `Team ${v.winner === 0 ? "one" : "two"} wins`)
    : v.stopped ? "Stopped" : `Team ${v.to_act === 0 ? "one" : "two"} to act (${G.seats[v.to_act]})` + (yourTurn() ? " — your turn" : "");
  if (!$("status").classList.contains("error") || yourTurn()) { $("status").classList.remove("error"); $("status").textContent = statusText(); }
  renderActions();
}

function yourTurn() { return options().length > 0; }

function statusText() {
  const v = G.view;
  if (G.replay) return `Replay: position ${G.replay.index} of ${G.replay.length}`;
  if (v.over || v.stopped) return "The game is over. Download the record or replay it.";
  if (!yourTurn()) return G.mode === "watch" ? "Watching." : "The opponent is playing…";
  switch (v.phase) {
    case "specials": return "Pick your special player (the other team's pick stays secret until both have picked).";
    case "offence_formation": return "Choose your offensive formation.";
    case "defence_formation": return `Choose your defence against the ${v.formations[0].replace("_", " ")}.`;
    case "kick_decision": return "Play on, or kick: field goal or punt.";
    case "scramble": return "Fumble! The ball is hidden. Take one blind step (click a player, then a square beside him) or decline.";
    default:
      return `You have ${v.points[v.to_act]} points. Click a player, then a square; Shift-click a teammate to push; ` +
             "double-click a teammate to throw; End turn when done.";
  }
}

function actButton(label, opt, cls) {
  const b = document.createElement("button");
  b.type = "button"; b.textContent = label; b.dataset.action = String(opt.id);
  if (cls) b.className = cls;
  b.addEventListener("click", () => choose(opt));
  return b;
}

function formationCard(opt) {
  const list = opt.side === "offence" ? G.tables.offence_formations : G.tables.defence_formations;
  const card = list.find((c) => c.name === opt.formation);
  const b = document.createElement("button");
  b.type = "button"; b.className = "card"; b.dataset.action = String(opt.id); b.title = card.model;
  const cv = document.createElement("canvas");
  cv.width = 96; cv.height = 44;
  const g = cv.getContext("2d");
  g.fillStyle = "#3f7a34"; g.fillRect(0, 0, 96, 44);
  const losY = opt.side === "offence" ? 8 : 38;
  g.fillStyle = "#4696ff"; g.fillRect(0, losY + 3, 96, 1);
  for (const s of card.spots) {
    const x = 48 + s.lane * 6;
    const y = opt.side === "offence" ? losY + s.depth * 8 : losY - s.depth * 6;
    g.fillStyle = s.tag === "QB" ? "#f5f5f5" : ["C", "LG", "RG", "LT", "RT"].includes(s.tag) ? "#9698a2" : opt.side === "offence" ? "#ff921c" : "#24cdd7";
    g.beginPath(); g.arc(x, y + 2, 2.6, 0, Math.PI * 2); g.fill();
  }
  b.appendChild(cv);
  const t = document.createElement("div"); t.textContent = card.title; b.appendChild(t);
  b.addEventListener("click", () => choose(opt));
  return b;
}

function renderActions() {
  const cards = $("cards"), kick = $("kick");
  cards.innerHTML = ""; kick.innerHTML = "";
  const opts = options();
  const end = opts.find((o) => o.kind === "end_turn");
  $("end-turn").hidden = !end;
  $("end-turn").textContent = end && end.blind ? "Decline the blind step" : "End turn";
  for (const o of opts) {
    if (o.kind === "formation") cards.appendChild(formationCard(o));
    else if (o.kind === "special") cards.appendChild(actButton(SPECIAL_NAMES[o.special], o, "card"));
    else if (o.kind === "play_on") kick.appendChild(actButton("Play on", o, "primary"));
    else if (o.kind === "field_goal") {
      const k = o.kick;
      const chance = k.mode === "dice" ? ` · ${(k.chance.value * 100).toFixed(1)}%` : " · paper football";
      kick.appendChild(actButton(`Field goal · ${k.yards} yd${chance}`, o, "kick-fg"));
    } else if (o.kind === "punt") {
      const v = G.view;
      const land = v.offence === 0 ? v.los_row + 1 - o.rows : v.los_row + 1 + o.rows;
      kick.appendChild(actButton(`Punt ${o.rows} (row ${Math.max(1, Math.min(30, land))}±2)`, o));
    } else if (o.kind === "follow") {
      kick.appendChild(actButton(`Follow: ${G.tables.tags[o.actor]}`, o));
    }
  }
  const list = $("action-list");
  list.innerHTML = "";
  $("n-actions").textContent = String(opts.length);
  for (const o of opts) list.appendChild(actButton(o.name, o));
}

// ------------------------------------------------------------------------------------------ choosing

function choose(opt) {
  if (G.busy || !G.view || !G.view.options.includes(opt)) return;  // only what the view offers
  G.busy = true; G.selected = null; setState("busy");
  $("status").classList.remove("error");
  send({ type: "action", game: G.game, action: opt.id, turn: G.view.steps });
}

function mouseSquare(ev) {
  const cv = $("field");
  const r = cv.getBoundingClientRect();
  return squareAt((ev.clientX - r.left) * (cv.width / r.width), (ev.clientY - r.top) * (cv.height / r.height));
}

function onClick(ev) {
  if (G.busy || !yourTurn()) return;
  const sq = mouseSquare(ev);
  if (sq < 0) return;
  const p = playerOn(sq);
  const opts = options();
  if (p) {
    const push = opts.find((o) => o.kind === "push" && o.pushed === p.slot);
    // Shift-click a teammate pushes him; so does a plain click on a strong lineman with the carrier selected
    if (push && (ev.shiftKey || (p.strong && G.selected === push.actor))) { choose(push); return; }
  }
  if (G.selected !== null) {
    const target = boardOptions(G.selected).find((o) => o.target === sq);
    if (target) { choose(target); return; }
  }
  if (p && (boardOptions(p.slot).length || opts.some((o) => o.actor === p.slot))) { G.selected = p.slot; }
  else G.selected = null;
  render();
}

function onDoubleClick(ev) {
  if (G.busy || !yourTurn()) return;
  const sq = mouseSquare(ev);
  const p = sq >= 0 ? playerOn(sq) : null;
  if (!p) return;
  const t = options().find((o) => o.kind === "throw" && o.receiver === p.slot);
  if (!t) return;
  if (t.price.kind === "handoff") { choose(t); return; }  // a handoff needs no confirmation
  openThrowDialog(t);
}

function openThrowDialog(t) {
  const pr = t.price, tags = G.tables.tags;
  $("throw-title").textContent = `${pr.kind === "lateral" ? "Lateral" : "Forward pass"}: ${tags[t.actor]} to ${tags[t.receiver]}`;
  if (pr.kind === "forward pass" && pr.offence_dice === 0) $("throw-dice").textContent = "Nobody within 3 squares: always caught.";
  else if (pr.kind === "forward pass") $("throw-dice").textContent = `You roll ${pr.offence_dice} ${pr.offence_dice === 1 ? "die" : "dice"} against their ${pr.defence_dice}.`;
  else $("throw-dice").textContent = "No dice: a lateral is dropped only by bad luck.";
  const c = pr.chance;
  $("throw-chance").textContent = `${(c.value * 100).toFixed(1)}% (${c.num}/${c.den})`;
  $("throw-cost").textContent = `Costs ${t.cost} points, spent whatever happens.`;
  G.pending = t;
  $("throw-dialog").showModal();
}

// ------------------------------------------------------------------------------------------ end, records, replay

function gameOver() {
  clearTimeout(G.watchTimer);
  $("download").hidden = false; $("watch-replay").hidden = false; $("stop").hidden = true; $("pause").hidden = true;
}

function gotRecord(record) {
  G.record = record;
  if (G.wantReplay) { G.wantReplay = false; send({ type: "load_record", record }); return; }
  const blob = new Blob([JSON.stringify(record)], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `gridiron-${G.game}.json`;
  document.body.appendChild(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

function startReplay(msg) {
  clearTimeout(G.watchTimer);
  G.replay = { game: msg.game, length: msg.length, index: 0 };
  G.game = msg.game; G.mode = "replay"; G.seats = msg.seats; G.carried = [0, 0]; G.lastRolls = -1;
  G.lastSteps = undefined;
  $("setup").hidden = true; $("game").hidden = false; $("replay").hidden = false;
  $("download").hidden = true; $("watch-replay").hidden = true; $("stop").hidden = true; $("pause").hidden = true;
  $("log").innerHTML = "";
  $("r-slider").max = String(msg.length);
  showFrame(msg.frame, true);
  updateReplayBar();
  G.busy = false; setState("idle");
}

function seek(index) {
  if (!G.replay || G.busy) return;
  const k = Math.max(0, Math.min(G.replay.length, index));
  G.busy = true; setState("busy");
  send({ type: "seek", game: G.replay.game, index: k });
}

function updateReplayBar() {
  $("r-slider").value = String(G.replay.index);
  $("r-index").textContent = `${G.replay.index} / ${G.replay.length}`;
}

// ------------------------------------------------------------------------------------------ wiring

function wire() {
  $("mode").addEventListener("change", () => { document.body.dataset.mode = $("mode").value; });
  document.body.dataset.mode = $("mode").value;
  $("setup-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    $("setup-error").textContent = "";
    send({ type: "new_game", settings: settingsFromForm() });
  });
  $("record-file").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    $("setup-error").textContent = "";
    let record;
    try { record = JSON.parse(await file.text()); }
    catch (err) { $("setup-error").textContent = `That file is not a record (not JSON): ${err.message}`; return; }
    send({ type: "load_record", record });
  });
  const cv = $("field");
  cv.width = W; cv.height = H;
  cv.addEventListener("click", onClick);
  cv.addEventListener("dblclick", onDoubleClick);
  cv.addEventListener("mousemove", (ev) => {  // who stands there, and what choosing him would do
    const sq = mouseSquare(ev);
    const p = sq >= 0 ? playerOn(sq) : null;
    let tip = p ? `${p.tag} (team ${p.team === 0 ? "one" : "two"}${p.strong ? ", strong" : ""}${p.carrier ? ", ball carrier" : ""})` : "";
    const t = p && options().find((o) => o.kind === "throw" && o.receiver === p.slot);
    if (t) tip += ` · double-click: ${t.price.text}`;
    if (sq >= 0) tip += `${tip ? " · " : ""}row ${Math.floor(sq / LANES) + 1}, lane ${(sq % LANES) + 1}`;
    cv.title = tip;
  });
  $("end-turn").addEventListener("click", () => { const o = options().find((x) => x.kind === "end_turn"); if (o) choose(o); });
  $("lines").addEventListener("click", () => {
    G.lines = G.lines === "line" ? "tint" : "line";
    $("lines").textContent = `Lines: ${G.lines === "line" ? "line" : "tinted rows"}`;
    if (G.view) render();
  });
  $("offence-up").addEventListener("change", () => { G.offenceUp = $("offence-up").checked; if (G.view) render(); });
  $("throw-dialog").addEventListener("close", () => {
    const t = G.pending; G.pending = null;
    if (t && $("throw-dialog").returnValue === "confirm") choose(t);
  });
  $("stop").addEventListener("click", () => {
    if (G.game && !G.replay) { G.stopping = true; clearTimeout(G.watchTimer); send({ type: "stop", game: G.game }); }
  });
  $("download").addEventListener("click", () => send({ type: "record", game: G.game }));
  $("watch-replay").addEventListener("click", () => { G.wantReplay = true; send({ type: "record", game: G.game }); });
  $("new").addEventListener("click", () => {
    clearTimeout(G.watchTimer);
    if (G.game) send({ type: "close", game: G.game });
    G.game = null; G.view = null; G.replay = null; G.queue = [];
    $("game").hidden = true; $("setup").hidden = false; setState("setup");
  });
  $("pause").addEventListener("click", () => {
    G.paused = !G.paused;
    $("pause").textContent = G.paused ? "Resume" : "Pause";
    if (G.paused) {
      // the next advance may be waiting on its timer (no request in flight): cancel it and show the pause
      // now; a request in flight shows it when its frames have played (afterFrames)
      clearTimeout(G.watchTimer);
      if (!G.busy && !G.playing && G.view && !G.view.over) setState("paused");
    } else if (!G.busy && !G.view.over) afterFrames();
  });
  $("r-first").addEventListener("click", () => seek(0));
  $("r-back").addEventListener("click", () => seek(G.replay.index - 1));
  $("r-fwd").addEventListener("click", () => seek(G.replay.index + 1));
  $("r-last").addEventListener("click", () => seek(G.replay.length));
  $("r-slider").addEventListener("change", () => seek(Number($("r-slider").value)));
  document.addEventListener("keydown", (ev) => {
    if (G.replay && ev.key === "ArrowRight") seek(G.replay.index + 1);
    if (G.replay && ev.key === "ArrowLeft") seek(G.replay.index - 1);
  });
}

// The centre of a square in the canvas's CSS pixels (for tests and tools that click the board).
window.gridironSquarePoint = (sq) => {
  const cv = $("field"), r = cv.getBoundingClientRect();
  const [x, y] = squareXY(sq);
  return { x: (x + SQ / 2) * (r.width / cv.width), y: (y + SQ / 2) * (r.height / cv.height) };
};
// The colour of a canvas pixel, at (dx, dy) from a square's top-left corner in canvas pixels.
window.gridironPixel = (sq, dx, dy) => {
  const [x, y] = squareXY(sq);
  return Array.from($("field").getContext("2d").getImageData(x + dx, y + dy, 1, 1).data.slice(0, 3));
};

wire();
connect();
