// Loopy: the elements are the edges between dots (0 unknown, 1 off the loop ×, 2 on it);
// the numbers sit in the cells, greyed when their count of loop sides is met.
"use strict";

(() => {
  let clueAt = [];

  Ludolab.register("loopy", {
    cycle: [0, 2, 1],
    optional: [1],
    navigation: false,
    columns: (p) => p.cols * 1.25,
    render(board, p) {
      board.classList.add("edge-board", "loopy");
      const track = `repeat(${p.cols}, calc(var(--cell) * 0.25) var(--cell)) calc(var(--cell) * 0.25)`;
      board.style.gridTemplateColumns = track;
      board.style.gridTemplateRows =
        `repeat(${p.rows}, calc(var(--cell) * 0.25) var(--cell)) calc(var(--cell) * 0.25)`;
      const index = {};
      p.edges.forEach(([kind, r, c], i) => { index[`${kind}${r},${c}`] = i; });
      const edges = new Array(p.edges.length);
      clueAt = [];
      for (let R = 0; R <= 2 * p.rows; R++) {
        for (let C = 0; C <= 2 * p.cols; C++) {
          let el;
          if (R % 2 === 0 && C % 2 === 0) {
            el = document.createElement("div");
            el.className = "dot";
          } else if (R % 2 === 1 && C % 2 === 1) {
            const r = (R - 1) / 2, c = (C - 1) / 2;
            el = document.createElement("div");
            el.className = "loopy-clue";
            const k = p.numbers[r][c];
            el.textContent = k === null ? "" : String(k);
            clueAt.push([el, r, c, k]);
          } else {
            const kind = R % 2 === 0 ? "h" : "v";
            const r = R % 2 === 0 ? R / 2 : (R - 1) / 2;
            const c = R % 2 === 0 ? (C - 1) / 2 : C / 2;
            const i = index[`${kind}${r},${c}`];
            el = Ludolab.cell();
            el.classList.add("link", kind === "h" ? "horizontal" : "vertical");
            el.setAttribute("aria-label", kind === "h"
              ? `edge above row ${r + 1}, column ${c + 1}` : `edge left of row ${r + 1}, column ${c + 1}`);
            edges[i] = el;
          }
          board.append(el);
        }
      }
      return edges;
    },
    paint(el, code) {
      el.textContent = code === 1 ? "×" : "";
      el.classList.toggle("on", code === 2);
    },
    update(p, state) {
      const on = {};
      p.edges.forEach(([kind, r, c], i) => { if (state[i] === 2) on[`${kind}${r},${c}`] = true; });
      for (const [el, r, c, k] of clueAt) {
        if (k === null) continue;
        const n = [`h${r},${c}`, `h${r + 1},${c}`, `v${r},${c}`, `v${r},${c + 1}`]
          .filter((name) => on[name]).length;
        el.classList.toggle("done", n === k);
        el.classList.toggle("over", n > k);
      }
    },
  });
})();
