// Wend and Swend: a cell holds 0 or k + 1 (in the k-th hidden word). Drag through letters and
// let go to try a word (it stays when it is one of the hidden words, traced either way); tap a
// found word to take it back; from the keyboard, Space adds the focused letter and Enter tries.
"use strict";

(() => {
  const COLOURS = ["#f4b6b6", "#b6d7f4", "#c8eab0", "#f7e1a1", "#d9c2f0", "#f6c6a6", "#b3e6e0",
    "#e8c0d8", "#d6dcae", "#c4cbe8", "#f2d0b8", "#bfe3c4"];
  let cells = [];

  const spec = {
    optional: [],
    render(board, p) {
      board.style.gridTemplateColumns = `repeat(${p.cols}, var(--cell))`;
      cells = [];
      for (let i = 0; i < p.rows * p.cols; i++) {
        const el = Ludolab.cell();
        el.classList.add("wend-letter");
        el.textContent = p.letters[Math.floor(i / p.cols)][i % p.cols].toUpperCase();
        el.setAttribute("aria-label", `letter ${el.textContent}, row ${Math.floor(i / p.cols) + 1}`
          + ` column ${i % p.cols + 1}`);
        board.append(el);
        cells.push(el);
      }
      return cells;
    },
    paint(el, code) {
      el.style.background = code ? COLOURS[(code - 1) % COLOURS.length] : "#ffffff";
    },
    update(p, state) {
      const list = document.getElementById("pad");
      list.textContent = "";
      p.paths.forEach((path, k) => {
        const found = path.every(([r, c]) => state[r * p.cols + c] === k + 1);
        const item = document.createElement("span");
        item.className = `wend-word${found ? " found" : ""}`;
        item.textContent = found
          ? path.map(([r, c]) => p.letters[r][c]).join("").toUpperCase()
          : "_ ".repeat(path.length).trim();
        list.append(item);
      });
    },
    attach(board, p, api) {
      const status = document.getElementById("status");
      let trace = [];
      const mark = () => cells.forEach((el, i) => el.classList.toggle("traced", trace.includes(i)));
      const adjacent = (a, b) => Math.abs(Math.floor(a / p.cols) - Math.floor(b / p.cols))
        + Math.abs(a % p.cols - b % p.cols) === 1;
      const add = (i) => {
        if (trace.includes(i)) return;
        if (trace.length && !adjacent(trace[trace.length - 1], i)) return;
        trace.push(i);
        mark();
      };
      const submit = () => {
        const word = trace.map((i) => p.letters[Math.floor(i / p.cols)][i % p.cols]).join("");
        const k = p.paths.findIndex((path) => {
          const ids = path.map(([r, c]) => r * p.cols + c);
          const back = ids.slice().reverse();
          return ids.length === trace.length && (ids.every((x, j) => x === trace[j])
            || back.every((x, j) => x === trace[j]));
        });
        if (k >= 0) {
          api.apply(trace.map((i) => [i, k + 1]));
        } else if (trace.length > 1) {
          status.textContent = `${word.toUpperCase()} is not one of the hidden words.`;
          status.className = "bad";
        }
        trace = [];
        mark();
      };
      const takeBack = (i) => {
        const code = api.code(i);
        if (code) api.apply(cells.map((_, j) => j).filter((j) => api.code(j) === code).map((j) => [j, 0]));
      };
      const indexAt = (x, y) => {
        const el = document.elementFromPoint(x, y);
        const hit = el && el.closest("#board .cell");
        return hit ? Number(hit.dataset.index) : null;
      };
      let dragging = false;
      board.addEventListener("pointerdown", (event) => {
        const i = indexAt(event.clientX, event.clientY);
        if (i === null) return;
        dragging = true;
        trace = [];
        add(i);
        board.setPointerCapture(event.pointerId);
      });
      board.addEventListener("pointermove", (event) => {
        if (!dragging) return;
        const i = indexAt(event.clientX, event.clientY);
        if (i !== null) add(i);
      });
      board.addEventListener("pointerup", () => {
        if (!dragging) return;
        dragging = false;
        if (trace.length === 1 && api.code(trace[0])) { takeBack(trace[0]); trace = []; mark(); return; }
        if (trace.length > 1) submit();
      });
      cells.forEach((el, i) => {
        el.addEventListener("keydown", (event) => {
          if (event.key === " ") { add(i); event.preventDefault(); }
          else if (event.key === "Enter") { submit(); event.preventDefault(); }
          else if (event.key === "Backspace" || event.key === "Delete") {
            takeBack(i); event.preventDefault(); event.stopPropagation();
          }
        });
      });
    },
  };
  Ludolab.register("wend", spec);
  Ludolab.register("swend", spec);
})();
