// Tents: 0 unknown, 1 grass (the player's "no tent here"), 2 tent, 3 tree (fixed); the tent
// counts of each row (left) and column (top), greyed when met and red when exceeded.
"use strict";

(() => {
  const SYMBOL = { 0: "", 1: "·", 2: "▲", 3: "♣" };
  const COLOUR = { 0: "#1d2330", 1: "#2f855a", 2: "#c05621", 3: "#276749" };
  const BACK = { 0: "#ffffff", 1: "#dff3e4", 2: "#ffffff", 3: "#ffffff" };
  let rowLabels = [], colLabels = [];

  Ludolab.register("tents", {
    cycle: [0, 1, 2],
    optional: [1],
    keys: { t: 2, g: 1 },
    columns: (p) => p.cols + 1,
    render(board, p) {
      board.style.gridTemplateColumns = `repeat(${p.cols + 1}, var(--cell))`;
      const label = (text) => {
        const el = document.createElement("div");
        el.className = "label";
        el.textContent = text;
        board.append(el);
        return el;
      };
      label("");
      colLabels = p.col_counts.map((n) => label(String(n)));
      rowLabels = [];
      const cells = [];
      for (let r = 0; r < p.rows; r++) {
        rowLabels.push(label(String(p.row_counts[r])));
        for (let c = 0; c < p.cols; c++) {
          const el = Ludolab.cell();
          el.setAttribute("aria-label", `row ${r + 1} column ${c + 1}`);
          board.append(el);
          cells.push(el);
        }
      }
      return cells;
    },
    paint(el, code) {
      el.textContent = SYMBOL[code];
      el.style.color = COLOUR[code];
      el.style.background = BACK[code];
    },
    update(p, state) {
      const rows = new Array(p.rows).fill(0), cols = new Array(p.cols).fill(0);
      state.forEach((code, i) => {
        if (code === 2) { rows[Math.floor(i / p.cols)]++; cols[i % p.cols]++; }
      });
      const mark = (el, have, want) => {
        el.classList.toggle("done", have === want);
        el.classList.toggle("over", have > want);
      };
      rows.forEach((n, r) => mark(rowLabels[r], n, p.row_counts[r]));
      cols.forEach((n, c) => mark(colLabels[c], n, p.col_counts[c]));
    },
  });
})();
