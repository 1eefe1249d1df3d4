// The play loop every game page shares: the puzzle list, moves, checking against the stored
// solution, hints from the stored deductions, undo, and progress kept in localStorage.
// A game's script registers how it draws its board (games/NAME.js); its pack script hands
// over the puzzles (packs/NAME.js). No solver runs here: every answer was computed offline.
"use strict";

const Ludolab = (() => {
  const specs = {};
  let data = null;

  // -- storage: localStorage when the browser allows it, memory otherwise ------------------
  const memory = {};
  const store = {
    get(key) {
      try { return window.localStorage.getItem(key); } catch (e) { return memory[key] ?? null; }
    },
    set(key, value) {
      try { window.localStorage.setItem(key, value); } catch (e) { memory[key] = value; }
    },
  };

  // -- the page's state --------------------------------------------------------------------
  let spec = null;      // the game's script
  let puzzle = null;    // the puzzle played (browser form: see research/puzzles/site/boards.py)
  let state = [];       // a code per element
  let undoStack = [];   // groups of [element, from, to]
  let cells = [];       // the element's DOM node per element index
  let shownHint = -1;   // the hint step on screen, or -1
  let selected = 0;     // the cell a number pad writes into

  const $ = (id) => document.getElementById(id);
  const key = (p) => `ludolab:${data.game}:${p.id}`;

  function saved(p) {
    try { return JSON.parse(store.get(key(p)) || "null"); } catch (e) { return null; }
  }

  function save() {
    store.set(key(puzzle), JSON.stringify({ state, solved: isSolved() }));
    markList();
  }

  // -- rules every game shares -------------------------------------------------------------
  function isWrong(i) {
    return state[i] !== 0 && state[i] !== puzzle.solution[i];
  }

  function isSolved() {
    const optional = spec.optional || [];
    return puzzle.solution.every(
      (code, i) => state[i] === code || (state[i] === 0 && optional.includes(code)));
  }

  function status(text, kind) {
    const el = $("status");
    el.textContent = text;
    el.className = kind || "";
  }

  function paint(i) {
    const el = cells[i];
    el.dataset.code = String(state[i]);
    el.classList.remove("wrong", "hinted");
    spec.paint(el, state[i], i, puzzle);
  }

  function repaint() {
    for (let i = 0; i < cells.length; i++) paint(i);
    if (spec.update) spec.update(puzzle, state);
  }

  // Apply a group of [element, code] changes as one undoable move.
  function apply(changes) {
    const group = [];
    for (const [i, code] of changes) {
      if (puzzle.start[i] !== 0 || state[i] === code) continue;
      group.push([i, state[i], code]);
      state[i] = code;
    }
    if (!group.length) return;
    undoStack.push(group);
    shownHint = -1;
    for (const [i] of group) paint(i);
    if (spec.update) spec.update(puzzle, state);
    afterMove();
  }

  function afterMove() {
    save();
    if (isSolved()) status("Solved! Every cell matches the one solution.", "solved");
    else status("");
  }

  function undo() {
    const group = undoStack.pop();
    if (!group) { status("Nothing to undo."); return; }
    for (const [i, from] of group) state[i] = from;
    shownHint = -1;
    repaint();
    afterMove();
  }

  function reset() {
    apply(puzzle.start.map((code, i) => [i, code]));
  }

  function check() {
    let wrong = 0;
    repaint();
    for (let i = 0; i < cells.length; i++) {
      if (isWrong(i)) { cells[i].classList.add("wrong"); wrong++; }
    }
    if (isSolved()) status("Solved! Every cell matches the one solution.", "solved");
    else if (wrong) status(`${wrong} ${wrong === 1 ? "cell is" : "cells are"} wrong (marked).`, "bad");
    else status("No mistakes so far.");
  }

  // The first wrong cell, else the first stored deduction the position does not show yet;
  // asked again for the same step, the hint makes its moves.
  function hint() {
    repaint();
    const wrong = cells.findIndex((_, i) => isWrong(i));
    if (wrong >= 0) {
      cells[wrong].classList.add("wrong");
      cells[wrong].focus();
      status("This cell is wrong: undo or clear it first.", "bad");
      return;
    }
    const k = puzzle.hints.findIndex((h) => h.set.some(([i, code]) => state[i] !== code));
    if (k < 0) { status(isSolved() ? "Solved already." : "No hint left."); return; }
    if (k === shownHint) { apply(puzzle.hints[k].set); return; }
    shownHint = k;
    for (const [i, code] of puzzle.hints[k].set) {
      if (state[i] !== code) cells[i].classList.add("hinted");
    }
    status(`Hint (${puzzle.hints[k].rule}): ${puzzle.hints[k].why} Press Hint again to do it.`);
  }

  // -- input -------------------------------------------------------------------------------
  function select(i) {
    cells[selected].classList.remove("selected");
    selected = i;
    cells[i].classList.add("selected");
  }

  function cycle(i) {
    if (!spec.cycle) return;  // a game that plays by other moves (Sudoku's pad, Wend's paths)
    const order = spec.cycle;
    const next = order[(order.indexOf(state[i]) + 1) % order.length];
    apply([[i, next]]);
  }

  function onKey(event, i) {
    const { rows, cols } = puzzle;
    const moves = { ArrowUp: -cols, ArrowDown: cols, ArrowLeft: -1, ArrowRight: 1 };
    if (event.key in moves && spec.navigation === false) return;  // elements are not a grid
    if (event.key in moves) {
      const j = i + moves[event.key];
      const sameRow = Math.floor(j / cols) === Math.floor(i / cols);
      if (j >= 0 && j < rows * cols && (Math.abs(moves[event.key]) !== 1 || sameRow)) {
        cells[j].focus();
      }
      event.preventDefault();
      return;
    }
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z") {
      undo(); event.preventDefault(); return;
    }
    if (puzzle.start[i] !== 0) return;
    const k = event.key.toLowerCase();
    if (k === " " || k === "enter") { cycle(i); event.preventDefault(); }
    else if (k === "backspace" || k === "delete" || k === "0") { apply([[i, 0]]); event.preventDefault(); }
    else if (spec.keys && k in spec.keys) { apply([[i, spec.keys[k]]]); event.preventDefault(); }
  }

  // -- the puzzle list ---------------------------------------------------------------------
  function markList() {
    for (const button of document.querySelectorAll("#puzzles button")) {
      const p = data.puzzles[Number(button.dataset.index)];
      const s = saved(p);
      button.classList.toggle("current", p === puzzle);
      button.classList.toggle("solved", Boolean(s && s.solved));
      button.classList.toggle("started", Boolean(s && !s.solved && s.state.some(
        (code, i) => code !== p.start[i])));
    }
  }

  function buildList() {
    const nav = $("puzzles");
    nav.textContent = "";
    for (const level of data.levels) {
      const members = data.puzzles.map((p, k) => [p, k]).filter(([p]) => p.level === level);
      if (!members.length) continue;
      const head = document.createElement("h3");
      head.textContent = level;
      const list = document.createElement("ol");
      members.forEach(([p, k], n) => {
        const item = document.createElement("li");
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = String(n + 1);
        button.title = `${level} ${n + 1} (${p.id})`;
        button.dataset.index = String(k);
        button.dataset.id = p.id;
        button.addEventListener("click", () => { window.location.hash = p.id; });
        item.append(button);
        list.append(item);
      });
      nav.append(head, list);
    }
  }

  function load(p) {
    puzzle = p;
    const s = saved(p);
    state = s && Array.isArray(s.state) && s.state.length === p.start.length
      ? s.state.map((code, i) => (p.start[i] !== 0 ? p.start[i] : code))
      : p.start.slice();
    undoStack = [];
    shownHint = -1;
    const n = data.puzzles.filter((q) => q.level === p.level).indexOf(p) + 1;
    $("puzzle-title").textContent = `${p.level} ${n} · ${p.rows} × ${p.cols}`;
    const board = $("board");
    board.textContent = "";
    board.style.setProperty("--cols", String(spec.columns ? spec.columns(p) : p.cols));
    cells = spec.render(board, p);
    selected = 0;
    cells.forEach((el, i) => {
      el.dataset.index = String(i);
      el.tabIndex = 0;
      if (p.start[i] !== 0) el.classList.add("fixed");
      // With a cycle a click plays; without one (Sudoku) it selects the cell for the pad.
      el.addEventListener("click", () => { if (spec.cycle && p.start[i] === 0) cycle(i); });
      el.addEventListener("focus", () => select(i));
      el.addEventListener("keydown", (event) => onKey(event, i));
    });
    const pad = $("pad");
    pad.textContent = "";
    for (const code of spec.pad ? spec.pad(p) : []) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = String(code);
      button.dataset.code = String(code);
      button.addEventListener("click", () => {
        if (p.start[selected] === 0) apply([[selected, code]]);
        cells[selected].focus();
      });
      pad.append(button);
    }
    if (spec.pad) {
      const clear = document.createElement("button");
      clear.type = "button";
      clear.textContent = "⌫";
      clear.title = "clear the cell";
      clear.dataset.code = "0";
      clear.addEventListener("click", () => { apply([[selected, 0]]); cells[selected].focus(); });
      pad.append(clear);
    }
    if (spec.attach) spec.attach(board, p, { apply, code: (i) => state[i], undo });
    repaint();
    markList();
    status(isSolved() ? "Solved! Every cell matches the one solution." : "",
      isSolved() ? "solved" : "");
  }

  function fromHash() {
    const id = decodeURIComponent(window.location.hash.slice(1));
    const p = data.puzzles.find((q) => q.id === id);
    if (p) { load(p); return; }
    // The first unsolved puzzle in the list's order (easiest level first).
    const listed = data.levels.flatMap((level) => data.puzzles.filter((q) => q.level === level));
    load(listed.find((q) => !(saved(q) || {}).solved) || listed[0]);
  }

  function boot() {
    const game = document.body.dataset.game;
    spec = specs[game];
    if (!spec || !data || data.game !== game) {
      status("This page's scripts did not load: rebuild the site with `ludolab site build`.", "bad");
      return;
    }
    buildList();
    $("check").addEventListener("click", check);
    $("hint").addEventListener("click", hint);
    $("undo").addEventListener("click", undo);
    $("reset").addEventListener("click", reset);
    window.addEventListener("hashchange", fromHash);
    fromHash();
  }

  document.addEventListener("DOMContentLoaded", boot);

  // A cell of a board: a focusable grid cell (not a button, whose own Space and Enter
  // handling would play a move twice).
  function cell() {
    const el = document.createElement("div");
    el.className = "cell";
    el.setAttribute("role", "gridcell");
    return el;
  }

  return {
    register(name, gameSpec) { specs[name] = gameSpec; },
    pack(d) { data = d; },
    cell,
  };
})();
