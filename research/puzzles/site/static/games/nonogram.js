// Nonogram: 0 unknown, 1 blank (×, the player's mark), 2 shaded; row clues on the left and
// column clues on top, greyed when the line's blocks match them.
"use strict";

(() => {
  let rowLabels = [], colLabels = [];

  function blocks(codes) {
    const out = [];
    let run = 0;
    for (const code of codes) {
      if (code === 2) run++;
      else if (run) { out.push(run); run = 0; }
    }
    if (run) out.push(run);
    return out.join(" ");
  }

  Ludolab.register("nonogram", {
    cycle: [0, 2, 1],
    optional: [1],
    keys: { f: 2, x: 1 },
    columns: (p) => p.cols + 1,
    render(board, p) {
      board.style.gridTemplateColumns = `auto repeat(${p.cols}, var(--cell))`;
      const label = (cls, clue) => {
        const el = document.createElement("div");
        el.className = `label ${cls}`;
        el.textContent = clue.length ? clue.join(cls === "col-clue" ? "\n" : " ") : "0";
        board.append(el);
        return el;
      };
      label("corner", []).textContent = "";
      colLabels = p.col_clues.map((clue) => label("col-clue", clue));
      rowLabels = [];
      const cells = [];
      for (let r = 0; r < p.rows; r++) {
        rowLabels.push(label("row-clue", p.row_clues[r]));
        for (let c = 0; c < p.cols; c++) {
          const el = Ludolab.cell();
          el.setAttribute("aria-label", `row ${r + 1} column ${c + 1}`);
          if (c % 5 === 0 && c) el.style.borderLeft = "2px solid #5b6372";
          if (r % 5 === 0 && r) el.style.borderTop = "2px solid #5b6372";
          board.append(el);
          cells.push(el);
        }
      }
      return cells;
    },
    paint(el, code) {
      el.textContent = code === 1 ? "×" : "";
      el.style.background = code === 2 ? "#1d2330" : "#ffffff";
      el.style.color = "#8a93a3";
    },
    update(p, state) {
      for (let r = 0; r < p.rows; r++) {
        const line = state.slice(r * p.cols, (r + 1) * p.cols);
        rowLabels[r].classList.toggle("done", blocks(line) === p.row_clues[r].join(" "));
      }
      for (let c = 0; c < p.cols; c++) {
        const line = Array.from({ length: p.rows }, (_, r) => state[r * p.cols + c]);
        colLabels[c].classList.toggle("done", blocks(line) === p.col_clues[c].join(" "));
      }
    },
  });
})();
