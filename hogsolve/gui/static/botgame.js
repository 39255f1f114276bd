// hogsolve: one game against the optimal bot, as every such page plays it: a new game, a move,
// the game resumed after a reload, and a game the server no longer has.
import {api, patiently, clearError, showError, showProgress} from "./common.js";

export const EXPIRED = "This game has expired. Start a new one.";
export const LAST_EXPIRED = "Your last game has expired (the server keeps games only while it runs). Start a new one.";

// A failed request: a game the server no longer has is forgotten and said so; anything else in `words`.
export function failed(key, err, words) {
  if (err.status === 404) localStorage.removeItem(key);
  showError(err.status === 404 ? EXPIRED : `${words}: ${err.message}`);
}

// A new game (`body`: rules, first), kept under `key` for a reload; null when it could not start.
export async function startGame(key, body) {
  try {
    const game = await patiently("POST", "/api/games", body, showProgress);
    localStorage.setItem(key, game.id);
    clearError();
    return game;
  } catch (err) {
    showError(`Could not start a game: ${err.message}`);
    return null;
  } finally {
    showProgress(null);
  }
}

// The New game button's work for `page` ({busy, render}): one request at a time, the page drawn
// busy meanwhile; `started(game)` sets the page up for the new game (its map) before it is drawn.
export async function newGame(page, key, body, started) {
  if (page.busy) return null;
  page.busy = true;
  page.render();
  try {
    const created = await startGame(key, body);
    if (created) await started(created);
    return created;
  } catch (err) {
    showError(`Could not load the policy: ${err.message}`);
    return null;
  } finally {
    page.busy = false;
    page.render();
  }
}

// The game after `move` (the page's own JSON); the same game, with the error shown, when it failed.
export async function makeMove(key, game, move, words) {
  try {
    return await api("POST", `/api/games/${game.id}/move`, move);
  } catch (err) {
    failed(key, err, words);
    return game;
  }
}

// The game kept under `key` when the server still has it and it is of this page's `family`; else null
// (and, when the server no longer has it, the page says so rather than drop it silently).
export async function resumeGame(key, family) {
  const saved = localStorage.getItem(key);
  if (!saved) return null;
  try {
    const found = await api("GET", `/api/games/${saved}`);
    if (found.family !== family) throw new Error("another game's page");
    return found;
  } catch (err) {
    localStorage.removeItem(key);
    if (err.status === 404) showError(LAST_EXPIRED);
    return null;
  }
}
