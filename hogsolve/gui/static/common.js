// hogsolve pages: what every page shares (requests, elements, dice, errors, colours).

export const $ = (id) => document.getElementById(id);
export const SVG = "http://www.w3.org/2000/svg";
// Dice counts 0..10 in matplotlib's "inferno": ordered dark to light, and every pair stays
// apart (CIE76 distance 10 or more) under deuteranopia and protanopia (tests/test_gui_colours.py).
export const DICE_COLOURS = ["#000004", "#160b39", "#420a68", "#6a176e", "#932667", "#bc3754",
                      "#dd513a", "#f37819", "#fca50a", "#f6d746", "#fcffa4"];
// Win probability 0..1 in "cividis", made to be read alike with every kind of colour vision.
export const SURFACE_STOPS = ["#00224e", "#35456c", "#666970", "#948e77", "#c8b866", "#fee838"];
export const PIPS = {1: [[50, 50]], 2: [[28, 28], [72, 72]], 3: [[26, 26], [50, 50], [74, 74]],
              4: [[28, 28], [72, 28], [28, 72], [72, 72]],
              5: [[26, 26], [74, 26], [50, 50], [26, 74], [74, 74]],
              6: [[28, 24], [72, 24], [28, 50], [72, 50], [28, 76], [72, 76]]};

export class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

export async function api(method, path, body) {
  const options = {method, headers: {"Content-Type": "application/json"}};
  if (body !== undefined) options.body = JSON.stringify(body);
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    throw new ApiError("the hogsolve server cannot be reached; is it still running?", 0);
  }
  let data = {};
  try { data = await response.json(); } catch (err) { data = {}; }
  if (!response.ok) throw new ApiError(data.error || response.statusText, response.status);
  data._status = response.status;
  return data;
}

// A request whose answer may be 202 "preparing" (the bot is being loaded or solved): ask again
// every half second, telling `progress(seconds)` meanwhile; then the real answer.
export async function patiently(method, path, body, progress) {
  for (;;) {
    const data = await api(method, path, body);
    if (data._status !== 202) { progress(null); return data; }
    progress(data.seconds, data.preparing);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

export function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

export function svgEl(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

export function svgText(attrs, text) {
  const t = svgEl("text", attrs);
  t.textContent = text;
  return t;
}

export function showError(message) {
  $("error-text").textContent = message;
  $("error").hidden = false;
  document.body.dataset.error = message;
}

export function clearError() {
  $("error").hidden = true;
  delete document.body.dataset.error;
}

export function showProgress(seconds, name) {
  const box = $("progress");
  if (!box) return;
  box.hidden = seconds === null;
  if (seconds !== null) box.textContent = `Preparing the optimal bot for ${name}… ${Math.round(seconds)} s`;
}

export function drawDie(face, sides, bad) {
  const svg = svgEl("svg", {viewBox: "0 0 100 100", class: "die", "data-face": face, "data-sides": sides,
                            "aria-hidden": "true"});
  const one = bad === undefined ? face === 1 : bad;
  if (sides === 4) {  // a four-sided die: a triangle with its number
    svg.appendChild(svgEl("polygon", {points: "50,6 95,90 5,90", fill: one ? "#fee2e2" : "#dcfce7",
                                      stroke: "#166534", "stroke-width": 4, "stroke-linejoin": "round"}));
    svg.appendChild(svgText({x: 50, y: 74, "text-anchor": "middle", "font-size": 38, "font-weight": 700,
                             fill: "#14532d"}, face));
  } else if (sides === 2) {  // a coin: H or T
    svg.appendChild(svgEl("circle", {cx: 50, cy: 50, r: 44, fill: one ? "#fee2e2" : "#fef3c7", stroke: "#92400e",
                                     "stroke-width": 4}));
    svg.appendChild(svgText({x: 50, y: 64, "text-anchor": "middle", "font-size": 40, "font-weight": 700,
                             fill: "#78350f"}, face === 2 ? "H" : "T"));
  } else {
    svg.appendChild(svgEl("rect", {x: 4, y: 4, width: 92, height: 92, rx: 16, fill: one ? "#fee2e2" : "#fff",
                                   stroke: "#1d2430", "stroke-width": 4}));
    for (const [x, y] of PIPS[face] || []) {
      svg.appendChild(svgEl("circle", {cx: x, cy: y, r: 9, fill: one ? "#dc2626" : "#1d2430"}));
    }
  }
  return svg;
}

export function mix(a, b, t) {
  const p = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
  const [x, y] = [p(a), p(b)];
  return `rgb(${x.map((v, i) => Math.round(v + (y[i] - v) * t)).join(",")})`;
}

export function surfaceColour(p) {  // win probability 0..1 along SURFACE_STOPS
  const t = Math.max(0, Math.min(1, p === null ? 0.5 : p)) * (SURFACE_STOPS.length - 1);
  const i = Math.min(Math.floor(t), SURFACE_STOPS.length - 2);
  return mix(SURFACE_STOPS[i], SURFACE_STOPS[i + 1], t - i);
}

// The scoreboard of a game against the bot (Hog and Pig pages): scores, goal bars, whose move.
export function drawScoreboard(game, goal) {
  const scores = game ? game.scores : {you: 0, bot: 0};
  goal = game ? game.goal : goal;
  for (const side of ["you", "bot"]) {
    $(`score-${side}`).textContent = scores[side];
    $(`goal-${side}`).style.width = `${Math.min(100, 100 * scores[side] / goal)}%`;
    $(`${side}-box`).classList.toggle("active", !!game && game.to_move === side);
  }
  return scores;
}

export function percent(p, digits = 1) { return p === null || p === undefined ? "–" : `${(100 * p).toFixed(digits)}%`; }

// Draw a goal x goal grid of values on a canvas with ticks; colour(s, o) fills each cell.
export const MAP = {left: 34, top: 22, size: 400};
export function drawGrid(canvas, goal, colour, marks) {
  const ctx = canvas.getContext("2d");
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  const cell = MAP.size / goal;
  for (let s = 0; s < goal; s++) {
    for (let o = 0; o < goal; o++) {
      ctx.fillStyle = colour(s, o);
      ctx.fillRect(MAP.left + o * cell, MAP.top + s * cell, cell + 0.5, cell + 0.5);
    }
  }
  ctx.fillStyle = "#374151";
  ctx.strokeStyle = "#6b7280";
  ctx.lineWidth = 1;
  ctx.font = "11px system-ui, sans-serif";
  const every = Math.max(1, Math.round(goal / 10));
  for (let v = 0; v <= goal; v += every) {
    const at = v * cell;
    ctx.textAlign = "center";
    ctx.fillText(String(v), MAP.left + at, MAP.top - 8);
    ctx.beginPath(); ctx.moveTo(MAP.left + at, MAP.top - 5); ctx.lineTo(MAP.left + at, MAP.top); ctx.stroke();
    ctx.textAlign = "right";
    ctx.fillText(String(v), MAP.left - 7, MAP.top + at + 4);
    ctx.beginPath(); ctx.moveTo(MAP.left - 5, MAP.top + at); ctx.lineTo(MAP.left, MAP.top + at); ctx.stroke();
  }
  for (const [state, colourOf, radius] of marks) {
    const [s, o] = state;
    const x = MAP.left + (o + 0.5) * cell, y = MAP.top + (s + 0.5) * cell;
    ctx.strokeStyle = "#fff";
    ctx.lineWidth = 4;
    ctx.beginPath();
    ctx.arc(x, y, radius, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.strokeStyle = colourOf;
    ctx.lineWidth = 2;
    ctx.stroke();
  }
}

export function gridStateAt(canvas, goal, event) {
  const rect = canvas.getBoundingClientRect();
  const scale = canvas.width / rect.width;
  const x = (event.clientX - rect.left) * scale - MAP.left, y = (event.clientY - rect.top) * scale - MAP.top;
  const o = Math.floor(x / MAP.size * goal), s = Math.floor(y / MAP.size * goal);
  return (s < 0 || o < 0 || s >= goal || o >= goal) ? null : [s, o, event.clientX - rect.left, event.clientY - rect.top];
}

export function legend(box, title, entries) {
  box.replaceChildren(el("strong", {}, title));
  for (const [colour, label] of entries) {
    const item = el("span");
    const swatch = el("i");
    swatch.style.background = colour;
    item.append(swatch, label);
    box.appendChild(item);
  }
}

// The lab's colours (the contest's student page draws the same maps): dice counts or hold
// thresholds on one scale, and an expected loss, small ones still visible.
const PALETTE = ["#f7fbff", "#deebf7", "#c6dbef", "#9ecae1", "#6baed6", "#4292c6", "#2171b5", "#08519c",
                 "#08306b", "#041f4a", "#02122e"];

export function choiceColour(value, most) {
  return PALETTE[Math.max(0, Math.min(PALETTE.length - 1, Math.round(value / Math.max(1, most) * (PALETTE.length - 1))))];
}

export function lossColour(loss, most) {
  if (!loss || loss <= 0) return "#ffffff";
  const t = Math.sqrt(loss / most);
  const r = 255, g = Math.round(235 - 200 * t), b = Math.round(215 - 200 * t);
  return `rgb(${r},${g},${b})`;
}

// The three maps of a strategy against the optimum (#map-strategy, #map-optimal, #map-loss): its
// choice, the optimal one, and the expected loss where they differ, and what the choices count
// (#map-unit: the family's unit, and the memories shown); returns the scales used.
export function drawChoiceMaps(maps, goal) {
  const most = Math.max(1, ...maps.optimal.flat(), ...maps.strategy.flat());
  const mostLoss = Math.max(1e-300, ...maps.loss.flat().map((x) => x || 0));
  drawGrid($("map-strategy"), goal, (s, o) => choiceColour(maps.strategy[s][o], most), []);
  drawGrid($("map-optimal"), goal, (s, o) => choiceColour(maps.optimal[s][o], most), []);
  drawGrid($("map-loss"), goal, (s, o) => (maps.strategy[s][o] === maps.optimal[s][o] ? "#ffffff"
                                            : lossColour(maps.loss[s][o], mostLoss)), []);
  $("map-unit").textContent = `(${maps.unit}${maps.memory.length ? `, memories ${maps.memory.join(", ")}` : ""})`;
  return {most, mostLoss};
}
