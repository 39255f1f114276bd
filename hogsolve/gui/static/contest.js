// The contest's leaderboard: standings pushed over a WebSocket on every change (no reload).
const $ = (id) => document.getElementById(id);
const percent = (x) => (x === null || x === undefined ? "–" : (100 * x).toFixed(4) + "%");

function rows(entries) {
  return entries.map((e) => {
    const row = document.createElement("tr");
    const cells = [(e.tied ? "=" : "") + e.rank, e.name, e.wins, e.losses, percent(e.mean)];
    for (const value of cells) {
      const cell = document.createElement("td");
      cell.textContent = String(value);
      row.append(cell);
    }
    return row;
  });
}

async function loadPast() {
  const past = await (await fetch("/api/past")).json();
  if (!past.length) return;
  $("past").hidden = false;
  const choice = $("past-choice");
  choice.replaceChildren(...past.map((p, i) => {
    const option = document.createElement("option"); option.value = String(i); option.textContent = `${p.title} (${p.rules})`;
    return option;
  }));
  const pick = () => $("past-board").tBodies[0].replaceChildren(...rows(past[Number(choice.value)].entries));
  choice.addEventListener("change", pick);
  pick();
}

function show(standings) {
  $("contest-rules").textContent = `${standings.rules}, to ${standings.goal}`;
  const done = standings.pairs_done, total = standings.pairs_total;
  $("progress").textContent = total
    ? `${done} of ${total} pairs scored${standings.scoring ? " (scoring…)" : ""}` : "No entries yet.";
  $("progress").dataset.done = String(done);
  const closed = standings.frozen ? "Submissions are frozen by the staff." : "";
  $("closed").textContent = closed;
  $("closed").hidden = !closed;
  $("board").tBodies[0].replaceChildren(...rows(standings.entries));
  if (!$("matrix").hidden) loadMatrix();
}

async function loadMatrix() {
  const reply = await fetch("/api/matrix");
  const data = await reply.json();
  const table = $("matrix");
  const head = document.createElement("tr");
  head.append(document.createElement("th"), ...data.teams.map((t) => {
    const th = document.createElement("th"); th.scope = "col"; th.textContent = t; return th;
  }));
  const rows = data.winrate_mat.map((row, i) => {
    const tr = document.createElement("tr");
    const th = document.createElement("th"); th.scope = "row"; th.textContent = data.teams[i];
    tr.append(th, ...row.map((x) => { const td = document.createElement("td"); td.textContent = percent(x); return td; }));
    return tr;
  });
  table.replaceChildren(head, ...rows);
}

$("show-matrix").addEventListener("click", () => {
  const table = $("matrix");
  table.hidden = !table.hidden;
  if (!table.hidden) loadMatrix();
});

$("submit").addEventListener("submit", async (event) => {
  event.preventDefault();
  const file = $("file").files[0];
  let body;
  try {
    body = JSON.parse(await file.text());
  } catch {
    $("submit-status").textContent = "The file is not JSON.";
    return;
  }
  const reply = await fetch("/api/submit", {
    method: "POST", body: JSON.stringify(body),
    headers: {"Content-Type": "application/json", "Authorization": `Bearer ${$("token").value}`},
  });
  const data = await reply.json();
  $("submit-status").textContent = reply.ok
    ? `Accepted as ${data.name}: ${data.pairs_new} new pairs to score.` : data.error;
});

function connect() {
  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/live`);
  socket.addEventListener("open", () => { $("connection").textContent = "Live"; });
  socket.addEventListener("message", (event) => show(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    $("connection").textContent = "Reconnecting…";
    setTimeout(connect, 1000);
  });
}
connect();
loadPast();
