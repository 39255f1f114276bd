// A student's own page: their exact figures, asked with their token (never stored by the page).
import {$, drawChoiceMaps} from "./common.js";

const percent = (x) => (x === null || x === undefined ? "–" : (100 * x).toFixed(4) + "%");

function drawMaps(maps, goal) {  // the lab's three maps, at both memories 0 under Feral Hogs
  drawChoiceMaps(maps, goal);
  document.body.dataset.maps = "1";
}

function fill(table, header, rows) {
  const head = document.createElement("tr");
  head.append(...header.map((h) => { const th = document.createElement("th"); th.scope = "col"; th.textContent = h; return th; }));
  table.replaceChildren(head, ...rows.map((row) => {
    const tr = document.createElement("tr");
    tr.append(...row.map((x) => { const td = document.createElement("td"); td.textContent = String(x); return td; }));
    return tr;
  }));
}

$("who").addEventListener("submit", async (event) => {
  event.preventDefault();
  const reply = await fetch("/api/me", {headers: {"Authorization": `Bearer ${$("token").value}`}});
  const data = await reply.json();
  if (!reply.ok) { $("status").textContent = data.error; return; }
  if (!data.entry) { $("status").textContent = `${data.owner}: no entry yet.`; $("entry").hidden = true; return; }
  const e = data.entry;
  $("status").textContent = "";
  $("entry").hidden = false;
  $("entry-name").textContent = e.name;
  $("against-optimal").textContent =
    `Against the optimal strategy: ${percent(e.against_optimal.average)} (first ${percent(e.against_optimal.first)}, second ${percent(e.against_optimal.second)})`;
  const columns = [...e.state_columns, "choice", "optimal", "expected_loss"];
  fill($("worst"), columns, e.worst_states.map((w) => columns.map((c) => (c === "expected_loss" ? w[c].toExponential(3) : w[c]))));
  drawMaps(e.maps, e.goal);
  fill($("pairs"), ["against", "win rate", "won"], e.pairs.map((p) => [p.against, percent(p.win_rate), p.won === null ? "–" : p.won ? "yes" : "no"]));
});
