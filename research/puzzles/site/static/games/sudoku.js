// Sudoku: 0 empty, 1..n a value; givens fixed (bold); thick lines between boxes; a number pad
// under the grid for touch screens writes into the selected cell.
"use strict";

(() => {
  Ludolab.register("sudoku", {
    keys: Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8, 9].map((v) => [String(v), v])),
    pad: (p) => Array.from({ length: p.rows }, (_, k) => k + 1),
    render(board, p) {
      board.style.gridTemplateColumns = `repeat(${p.cols}, var(--cell))`;
      const [br, bc] = p.box;
      const cells = [];
      for (let i = 0; i < p.rows * p.cols; i++) {
        const el = Ludolab.cell();
        const r = Math.floor(i / p.cols), c = i % p.cols;
        if (r % br === 0 && r) el.style.borderTop = "2px solid #1d2330";
        if (c % bc === 0 && c) el.style.borderLeft = "2px solid #1d2330";
        el.setAttribute("aria-label", `row ${r + 1} column ${c + 1}`);
        board.append(el);
        cells.push(el);
      }
      return cells;
    },
    paint(el, code, i, p) {
      el.textContent = code ? String(code) : "";
      const given = p.start[i] !== 0;
      el.style.fontWeight = given ? "700" : "400";
      el.style.color = given ? "#1d2330" : "#2b6cb0";
      el.style.background = given ? "#eef1f5" : "#ffffff";
    },
  });
})();
