// Zip: the elements are the links between side-by-side cells (0 unknown, 1 no link ×,
// 2 on the path). Cells sit between them; dragging across cells draws links (back over a
// link erases it); Shift+arrow on a focused cell does the same from the keyboard.
"use strict";

(() => {
  let cellAt = {};     // "r,c" -> the cell's node
  let linkOf = {};     // "r,c|r,c" (sorted) -> element index

  const key = (a, b) => {
    const [x, y] = [a.join(","), b.join(",")].sort();
    return `${x}|${y}`;
  };

  Ludolab.register("zip", {
    cycle: [0, 2, 1],
    optional: [1],
    navigation: false,
    columns: (p) => p.cols * 1.3,
    render(board, p) {
      const n = p.rows;
      board.classList.add("edge-board");
      board.style.gridTemplateColumns =
        `repeat(${n - 1}, var(--cell) calc(var(--cell) * 0.3)) var(--cell)`;
      board.style.gridTemplateRows = board.style.gridTemplateColumns;
      cellAt = {};
      linkOf = {};
      p.links.forEach(([a, b], i) => { linkOf[key(a, b)] = i; });
      const numberAt = {};
      p.numbers.forEach(([r, c], k) => { numberAt[`${r},${c}`] = k + 1; });
      const links = new Array(p.links.length);
      for (let R = 0; R < 2 * n - 1; R++) {
        for (let C = 0; C < 2 * n - 1; C++) {
          let el;
          if (R % 2 === 0 && C % 2 === 0) {
            const r = R / 2, c = C / 2;
            el = document.createElement("div");
            el.className = "zip-cell";
            el.tabIndex = 0;
            el.dataset.cell = `${r},${c}`;
            el.setAttribute("aria-label", `row ${r + 1} column ${c + 1}`);
            if (numberAt[`${r},${c}`]) {
              const badge = document.createElement("span");
              badge.className = "zip-number";
              badge.textContent = String(numberAt[`${r},${c}`]);
              el.append(badge);
            }
            cellAt[`${r},${c}`] = el;
          } else if (R % 2 !== C % 2) {
            const a = [Math.floor(R / 2), Math.floor(C / 2)];
            const b = R % 2 ? [a[0] + 1, a[1]] : [a[0], a[1] + 1];
            const i = linkOf[key(a, b)];
            if (i === undefined) {
              el = document.createElement("div");
              el.className = `wall ${R % 2 ? "across" : "down"}`;
            } else {
              el = Ludolab.cell();
              el.classList.add("link", R % 2 ? "vertical" : "horizontal");
              el.setAttribute("aria-label", `link ${a[0] + 1},${a[1] + 1} to ${b[0] + 1},${b[1] + 1}`);
              links[i] = el;
            }
          } else {
            el = document.createElement("div");
            el.className = "corner";
          }
          board.append(el);
        }
      }
      return links;
    },
    paint(el, code) {
      el.textContent = code === 1 ? "×" : "";
      el.classList.toggle("on", code === 2);
    },
    update(p, state) {
      const used = {};
      p.links.forEach(([a, b], i) => {
        if (state[i] === 2) { used[a.join(",")] = true; used[b.join(",")] = true; }
      });
      for (const [name, el] of Object.entries(cellAt)) el.classList.toggle("on", Boolean(used[name]));
    },
    attach(board, p, api) {
      let last = null;
      const step = (from, to) => {
        const i = linkOf[key(from, to)];
        if (i === undefined) return false;
        api.apply([[i, api.code(i) === 2 ? 0 : 2]]);
        return true;
      };
      const cellOf = (x, y) => {
        const el = document.elementFromPoint(x, y);
        const hit = el && el.closest(".zip-cell");
        return hit ? hit.dataset.cell.split(",").map(Number) : null;
      };
      board.addEventListener("pointerdown", (event) => {
        const at = cellOf(event.clientX, event.clientY);
        if (!at) return;
        last = at;
        board.setPointerCapture(event.pointerId);
      });
      board.addEventListener("pointermove", (event) => {
        if (!last) return;
        const at = cellOf(event.clientX, event.clientY);
        if (!at || (at[0] === last[0] && at[1] === last[1])) return;
        if (Math.abs(at[0] - last[0]) + Math.abs(at[1] - last[1]) === 1) step(last, at);
        last = at;
      });
      const stop = () => { last = null; };
      board.addEventListener("pointerup", stop);
      board.addEventListener("pointercancel", stop);
      const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
      for (const [name, el] of Object.entries(cellAt)) {
        el.addEventListener("keydown", (event) => {
          if (!(event.key in moves)) {
            if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z") {
              api.undo(); event.preventDefault();
            }
            return;
          }
          const here = name.split(",").map(Number);
          const to = [here[0] + moves[event.key][0], here[1] + moves[event.key][1]];
          const target = cellAt[to.join(",")];
          if (!target) return;
          if (event.shiftKey) step(here, to);
          target.focus();
          event.preventDefault();
        });
      }
    },
  });
})();
