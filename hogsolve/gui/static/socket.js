// hogsolve: the one reconnecting WebSocket of the live pages (a friend's table, a SinbadHogBot room).
import {$} from "./common.js";

// Opens `path` and keeps it open: `hello()` is sent on every (re)connection, each message goes to
// `onMessage` (a frame holds one message, or several in order as a JSON array), and a close goes to
// `onClose(event)`, which returns false to stay closed (the server refused); otherwise the page
// says so and reconnects, waiting longer each time until a message arrives.
export function liveSocket(path, {hello, onMessage, onClose}) {
  let socket = null, retry = 0, closed = false;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  function open() {
    socket = new WebSocket(`${scheme}://${location.host}${path}`);
    $("connection").textContent = "Connecting…";
    socket.onopen = () => socket.send(JSON.stringify(hello()));
    socket.onmessage = (event) => {
      retry = 0;
      const data = JSON.parse(event.data);
      (Array.isArray(data) ? data : [data]).forEach(onMessage);
    };
    socket.onclose = (event) => {
      if (closed || (onClose && onClose(event) === false)) return;
      $("connection").textContent = "Connection lost: reconnecting…";
      setTimeout(open, Math.min(5000, 400 * 2 ** retry++));
    };
  }
  open();
  return {
    send(message) {  // true when sent
      if (socket.readyState !== WebSocket.OPEN) return false;
      socket.send(JSON.stringify(message));
      return true;
    },
    close() { closed = true; socket.close(); },
    drop() { socket.close(); },  // as a lost connection: the page reconnects
  };
}
