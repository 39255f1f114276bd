// hogsolve: the list of SinbadHogBot rooms, and a way into one.
import {$, api, el} from "./common.js";

async function start() {
  $("go").addEventListener("submit", (event) => {
    event.preventDefault();
    location.href = `/sinbad/${encodeURIComponent($("room").value)}`;
  });
  try {
    const data = await api("GET", "/api/sinbad/rooms");
    for (const r of data.rooms) {
      const item = el("li");
      item.appendChild(el("a", {href: `/sinbad/${encodeURIComponent(r.room)}`}, r.room));
      item.appendChild(document.createTextNode(` (${r.players} seated${r.playing ? ", playing" : ""})`));
      $("rooms").appendChild(item);
    }
    if (!data.rooms.length) $("rooms").appendChild(el("li", {}, "none yet"));
  } catch (err) { $("rooms").appendChild(el("li", {}, err.message)); }
  document.body.dataset.ready = "1";
}

start();
