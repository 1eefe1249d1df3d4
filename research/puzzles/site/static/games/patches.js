// Patches: a cell holds 0 or k + 1 (in clue k's patch). Drag a rectangle from corner to corner
// to give it to the one clue inside; tap a patch to take it away; from the keyboard, Enter on
// two corners.
"use strict";

(() => {
  const COLOURS = ["#f4b6b6", "#b6d7f4", "#c8eab0", "#f7e1a1", "#d9c2f0", "#f6c6a6", "#b3e6e0",
    "#e8c0d8", "#d6dcae", "#c4cbe8", "#f2d0b8", "#bfe3c4"];
  const SYMBOL = { square: "■", wide: "▬", tall: "▮", any: "✱" };
  let cells = [];

  function rectangle(p, a, b) {
    const [r0, c0] = [Math.floor(a / p.cols), a % p.cols];
    const [r1, c1] = [Math.floor(b / p.cols), b % p.cols];
    const out = [];
    for (let r = Math.min(r0, r1); r <= Math.max(r0, r1); r++) {
      for (let c = Math.min(c0, c1); c <= Math.max(c0, c1); c++) out.push(r * p.cols + c);
    }
    return out;
  }

  Ludolab.register("patches", {
    optional: [],
    render(board, p) {
      board.style.gridTemplateColumns = `repeat(${p.cols}, var(--cell))`;
      cells = [];
      const clueAt = {};
      p.clues.forEach((clue, k) => { clueAt[clue.cell[0] * p.cols + clue.cell[1]] = clue; });
      for (let i = 0; i < p.rows * p.cols; i++) {
        const el = Ludolab.cell();
        const clue = clueAt[i];
        if (clue) {
          el.classList.add("patch-clue");
          el.textContent = SYMBOL[clue.shape] + (clue.area === null ? "" : String(clue.area));
        }
        el.setAttribute("aria-label", `row ${Math.floor(i / p.cols) + 1} column ${i % p.cols + 1}`);
        board.append(el);
        cells.push(el);
      }
      return cells;
    },
    paint(el, code) {
      el.style.background = code ? COLOURS[(code - 1) % COLOURS.length] : "#ffffff";
    },
    attach(board, p, api) {
      const clueIndex = {};
      p.clues.forEach((clue, k) => { clueIndex[clue.cell[0] * p.cols + clue.cell[1]] = k; });
      const draw = (a, b) => {
        const inside = rectangle(p, a, b);
        const held = inside.filter((i) => i in clueIndex);
        const status = document.getElementById("status");
        if (held.length !== 1) {
          status.textContent = "A patch holds exactly one clue.";
          status.className = "bad";
          return;
        }
        const code = clueIndex[held[0]] + 1;
        const changes = [];
        cells.forEach((_, i) => { if (api.code(i) === code) changes.push([i, 0]); });
        for (const i of inside) changes.push([i, code]);
        api.apply(changes);
      };
      const takeAway = (i) => {
        const code = api.code(i);
        if (!code) return;
        api.apply(cells.map((_, j) => j).filter((j) => api.code(j) === code).map((j) => [j, 0]));
      };
      let start = null, moved = false;
      const indexAt = (x, y) => {
        const el = document.elementFromPoint(x, y);
        const hit = el && el.closest("#board .cell");
        return hit ? Number(hit.dataset.index) : null;
      };
      board.addEventListener("pointerdown", (event) => {
        start = indexAt(event.clientX, event.clientY);
        moved = false;
        if (start !== null) board.setPointerCapture(event.pointerId);
      });
      board.addEventListener("pointermove", (event) => {
        if (start === null) return;
        const at = indexAt(event.clientX, event.clientY);
        if (at !== null && at !== start) moved = true;
      });
      board.addEventListener("pointerup", (event) => {
        if (start === null) return;
        const end = indexAt(event.clientX, event.clientY);
        if (moved && end !== null) draw(start, end);
        else if (api.code(start)) takeAway(start);
        else draw(start, start);
        start = null;
      });
      let corner = null;
      cells.forEach((el, i) => {
        el.addEventListener("keydown", (event) => {
          if (event.key === "Enter") {
            if (corner === null) { corner = i; el.classList.add("hinted"); }
            else { cells[corner].classList.remove("hinted"); draw(corner, i); corner = null; }
            event.preventDefault();
          } else if (event.key === "Backspace" || event.key === "Delete") {
            takeAway(i);
            event.preventDefault();
            event.stopPropagation();
          }
        });
      });
    },
  });
})();
