// Queens: 0 empty, 1 cross (the player's "no queen here"), 2 queen; regions coloured, with
// thick borders between regions.
"use strict";

(() => {
  const COLOURS = ["#f4b6b6", "#b6d7f4", "#c8eab0", "#f7e1a1", "#d9c2f0", "#f6c6a6", "#b3e6e0",
    "#e8c0d8", "#d6dcae", "#c4cbe8", "#f2d0b8", "#bfe3c4"];
  const SYMBOL = { 0: "", 1: "×", 2: "♛" };

  Ludolab.register("queens", {
    cycle: [0, 1, 2],
    optional: [1],
    keys: { q: 2, x: 1 },
    render(board, p) {
      board.style.gridTemplateColumns = `repeat(${p.cols}, var(--cell))`;
      const cells = [];
      for (let i = 0; i < p.rows * p.cols; i++) {
        const el = Ludolab.cell();
        const r = Math.floor(i / p.cols), c = i % p.cols, k = p.regions[i];
        el.style.background = COLOURS[k % COLOURS.length];
        const edge = (rr, cc) => rr < 0 || cc < 0 || rr >= p.rows || cc >= p.cols
          || p.regions[rr * p.cols + cc] !== k;
        el.style.borderTop = edge(r - 1, c) ? "2px solid #1d2330" : "";
        el.style.borderBottom = edge(r + 1, c) ? "2px solid #1d2330" : "";
        el.style.borderLeft = edge(r, c - 1) ? "2px solid #1d2330" : "";
        el.style.borderRight = edge(r, c + 1) ? "2px solid #1d2330" : "";
        el.setAttribute("aria-label", `row ${r + 1} column ${c + 1} region ${k + 1}`);
        board.append(el);
        cells.push(el);
      }
      return cells;
    },
    paint(el, code) {
      el.textContent = SYMBOL[code];
      el.style.color = code === 1 ? "#5b6372" : "#1d2330";
    },
  });
})();
