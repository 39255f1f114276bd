// hogsolve: a SinbadHogBot room. Every update is pushed over the room's WebSocket; a person's
// page speaks the same protocol as any bot ({"join"}, then {"say": LINE}).
import {$, el} from "./common.js";
import {liveSocket} from "./socket.js";

const room = decodeURIComponent(location.pathname.split("/")[2] || "lobby");
const seatKey = `hogsolve-sinbad-${room}`;
let socket = null, seat = null, hand = [], chosen = new Set(), lines = 0, unsent = "", welcomed = "";
let players = [];  // the last players message's seats (an offers message changes only the offers)

function logLine(text, kind) {
  const chat = $("chat");
  chat.appendChild(el("li", {class: kind || ""}, text));  // textContent: a player's HTML stays text
  while (chat.children.length > 300) chat.removeChild(chat.firstChild);
  lines += 1;
  chat.start = lines - chat.children.length + 1;  // the numbers go on where the trimmed lines were
  chat.scrollTop = chat.scrollHeight;
  document.body.dataset.lines = lines;
}

function announce(text) {  // the live region: only what concerns this player, not every line
  const region = $("announce");
  region.textContent = "";
  setTimeout(() => { region.textContent = text; }, 50);
}

function kindOf(m) {  // the chat line's style
  if (m.type === "error") return "error";
  if (["round_start", "round_over", "game_over"].includes(m.type)) return "round";
  return m.private || m.type === "received" || m.type === "my_offer" ? "private" : "";
}

function say(line) {  // true when sent
  return socket !== null && socket.send({say: line});
}

function connect(name, token) {  // on a reconnection the seat's token takes the seat back
  socket = liveSocket(`/sinbad/${encodeURIComponent(room)}/ws`, {
    hello: () => ({...(seat ? {join: seat.name, token: seat.token} : token ? {join: name, token} : {join: name}),
                   batch: true}),  // a command's messages in one frame
    onMessage: handle,
    onClose: () => {
      if (seat) return true;
      // refused: the reason (from the server's error) stays, and the form comes back
      if ($("connection").textContent === "Connecting…") $("connection").textContent = "Could not join: try again.";
      $("join").hidden = false;
      $("name").focus();
      socket = null;
      return false;
    },
  });
}

function handle(m) {
  if (m.type === "history") {  // the room's story so far, on every join and reconnect
    $("chat").replaceChildren();
    lines = 0;
    m.messages.forEach((line) => logLine(line.text, kindOf(line)));
    if (welcomed) logLine(welcomed, "private");
    return;
  }
  if (m.type === "welcome") {
    seat = {name: m.name, token: m.token};
    localStorage.setItem(seatKey, JSON.stringify(seat));
    $("join").hidden = true;
    $("connection").textContent = `You are ${m.name}.`;
    document.body.dataset.seat = m.name;
    welcomed = m.text;
    logLine(m.text, "private");
    if (unsent) {  // typed while the connection was down: sent now
      const line = unsent;
      unsent = "";
      $("notice").textContent = "";
      if ($("line").value === line) $("line").value = "";
      say(line);
    }
  } else if (m.type === "hand") {
    hand = m.cards;
    chosen.clear();
    drawHand();
  } else if (m.type === "players") {
    players = m.players;
    drawPlayers(m.players, m.offers);
    if (m.text && !m.text.startsWith("players:")) logLine(m.text);
  } else if (m.type === "offers") {
    drawPlayers(players, m.offers);
  } else if (m.type === "round_start") {
    $("items").textContent = m.items.map((i) => `${i.item} [${i.value}]`).join(", ");
    $("my-offer").textContent = "";
    $("banner").hidden = true;
    logLine(m.text, "round");
    announce(m.text);
  } else if (m.type === "my_offer") {
    $("my-offer").textContent = `Your open offer: ${m.count} ${m.item}`;
    logLine(m.text, "private");
  } else if (m.type === "round_over" || m.type === "game_over") {  // the banner (a status) announces it
    $("banner").hidden = false;
    $("banner").textContent = m.text;
    document.body.dataset[m.type === "round_over" ? "roundsOver" : "gameOver"] =
      m.type === "round_over" ? String(Number(document.body.dataset.roundsOver || 0) + 1) : "1";
    logLine(m.text, "round");
  } else if (m.type === "error") {
    if (!seat) $("connection").textContent = m.text.replace(/^error: /, "Could not join: ");
    logLine(m.text, "error");
    announce(m.text);
  } else {
    logLine(m.text, kindOf(m));
    const mine = m.type === "received" || (m.type === "trade" && seat && m.players.includes(seat.name));
    if (mine) announce(m.text);
    if (m.type === "trade" && seat && m.players.includes(seat.name)) $("my-offer").textContent = "";
  }
}

function drawHand() {
  const box = $("hand");
  box.replaceChildren();
  hand.forEach((card) => {
    const b = el("button", {type: "button", class: "card", "data-position": card.position, "data-item": card.item,
                            "aria-pressed": chosen.has(card.position) ? "true" : "false"});
    b.append(el("span", {class: "pos"}, String(card.position)), el("strong", {}, card.item),
             el("small", {}, `[${card.value}]`));
    b.addEventListener("click", () => {
      if (chosen.has(card.position)) chosen.delete(card.position); else chosen.add(card.position);
      drawHand();
    });
    box.appendChild(b);
  });
  document.body.dataset.hand = hand.map((c) => c.item).join(",");
  $("offer").disabled = chosen.size === 0;
}

function picked() { return [...chosen].sort((a, b) => a - b).join(""); }

function drawPlayers(players, offers) {
  const list = $("players");
  list.replaceChildren();
  for (const p of players) {
    const mark = p.status === "here" ? "" : ` [${p.status}]`;
    list.appendChild(el("li", {"data-name": p.name}, `${p.name}${p.kind !== "person" ? ` (${p.kind} bot)` : ""}${mark}: ${p.points}`));
  }
  const box = $("offers");
  box.replaceChildren();
  for (const o of offers) {
    const item = el("li", {"data-player": o.player}, `${o.player} offers ${o.count} card${o.count > 1 ? "s" : ""} `);
    if (seat && o.player !== seat.name) {
      const take = el("button", {type: "button", class: "take"}, "Take with the chosen cards");
      take.addEventListener("click", () => { if (chosen.size) say(`/b ${picked()} ${o.player}`); });
      item.appendChild(take);
    }
    box.appendChild(item);
  }
  if (!offers.length) box.appendChild(el("li", {}, "none"));
}

function start() {
  $("room-title").textContent = `SinbadHogBot room ${room}`;
  $("join").addEventListener("submit", (event) => {
    event.preventDefault();
    $("join").hidden = true;
    connect($("name").value.trim().normalize("NFC"), null);
  });
  $("say").addEventListener("submit", (event) => {
    event.preventDefault();
    const line = $("line").value;
    if (!line.trim()) return;
    if (say(line)) { $("line").value = ""; return; }
    unsent = line;  // kept in the box, sent when the connection is back
    $("notice").textContent = "Not connected: your line stays here and is sent when the connection is back.";
  });
  $("start").addEventListener("click", () => say("/start"));
  $("hog").addEventListener("click", () => say("hog"));
  $("add-bot").addEventListener("click", () => say(`/bot add ${$("bot-kind").value}`));
  $("offer").addEventListener("click", () => { if (chosen.size) say(`/b ${picked()}`); });
  const saved = localStorage.getItem(seatKey);
  if (saved) { seat = JSON.parse(saved); connect(seat.name, seat.token); }
  else $("join").hidden = false;
  document.body.dataset.ready = "1";
}

// What a test or a curious reader may inspect or do from the console; nothing on the page uses it.
window.hogsolvePage = Object.freeze({dropConnection: () => socket && socket.drop()});

start();
