/* Two depth-first listings in C, for speed only; listers.py runs them and says when the
 * Python that they stand in for runs instead.
 * One concept in one file (about 650 lines): the two listings share the search's helpers and
 * are built as one extension, its source's digest compiled in (setup.py).
 *
 * tokens(): the token lister's search (token_lister.TokenLister.run). TokenLister (Python,
 * compiled with mypyc) builds the tables of one terrain layout: domains, the pair rules'
 * forbidden values, the group sums, the value order. This runs the same search over those
 * tables, step for step: the same nodes, the same layouts in the same order
 * (tests/test_listers.py holds the two to each other). The 2019 seed's 96 terrain layouts
 * take about 20 million nodes: about 80 s in the compiled Python, 5 s here.
 * TokenLister's docstring describes the search and its pruning.
 *
 * terrain(): terrain layouts under pair, triple and unary rules on terrain codes, hex by hex
 * in hex order with the codes in increasing order (so the layouts come out sorted), with
 * forward checking of the pair rules. It stands in for the kernel's general search
 * (space.enumerate_space) on such sets: balanced's 188,160 layouts in a fraction of a second.
 *
 * Every mask is a machine word: domains are sets of codes, `where` and `clash` are sets of
 * hexes (at most 32). The searches allocate nothing once they have started, but for the
 * layouts they keep.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#ifndef SOURCE_SHA256
#define SOURCE_SHA256 ""
#endif

#define VALUES 13 /* token codes 0..12; 0 = the desert's missing token */
#define MAX_HEXES 32

typedef struct {
    const int32_t *data;
    Py_ssize_t len;
} Table;

typedef struct {
    int h_count;
    int left[VALUES];
    int n[MAX_HEXES];
    int open[MAX_HEXES];
    uint32_t dom[MAX_HEXES];
    uint32_t where[VALUES];
    int owner[MAX_HEXES];
    uint32_t seen, matched; /* augment: hexes visited on this path; hexes some copy holds */
    Table deserts, forbid, partner_start, partner_list, g_hex_start, g_hex_list, g_const,
        g_weight, g_order, g_hi, g_top, g_cap_start, g_cap_list, hexg_start, hexg_list, priority,
        clash;
    int g_count;
    int32_t *g_sum, *g_open;
    int32_t *trail;
    int trail_len, trail_cap;
    int placed, to_place;
    long long found, nodes, node_limit, keep_limit, kept_count;
    int stop;
    int8_t *kept;
    size_t kept_cap; /* in layouts */
    PyObject *check; /* None, or called with each complete layout's tokens (a list) */
    int error;       /* a Python exception is set */
} Lister;

/* Bit counting by hand: x86-64's baseline has no popcount instruction, and the builtin's
 * library call was a twentieth of the search. */
static inline int popcount32(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
static inline int lowest(uint32_t x) { return __builtin_ctz(x); }

static void mark(Lister *s, int h, uint32_t values, int present) {
    uint32_t bit = 1u << h;
    while (values) {
        int v = lowest(values);
        values &= values - 1;
        if (present)
            s->where[v] |= bit;
        else
            s->where[v] &= ~bit;
    }
}

static int narrow(Lister *s, int q, uint32_t mask) {
    uint32_t old = s->dom[q], now = old & mask;
    if (now != old) {
        s->trail[s->trail_len++] = q;
        s->trail[s->trail_len++] = (int32_t)old;
        s->dom[q] = now;
        mark(s, q, old & ~now, 0);
    }
    return now != 0;
}

static int sum_fits(Lister *s, int g) {
    int k = s->g_open[g];
    int hi = s->g_hi.data[g] - s->g_sum[g];
    if (k == 0) return hi >= 0;
    const int32_t *weight = s->g_weight.data + g * VALUES;
    int others = 0, need = k - 1;
    if (need) {
        const int32_t *order = s->g_order.data + g * (VALUES - 1);
        for (int i = 0; i < VALUES - 1; i++) {
            int w = order[i];
            int take = s->left[w];
            if (take > need) take = need;
            others += take * weight[w];
            need -= take;
            if (need == 0) break;
        }
    }
    int cap = hi - others;
    if (cap >= s->g_top.data[g]) return 1;
    if (cap < 0) return 0;
    uint32_t m = (uint32_t)s->g_cap_list.data[s->g_cap_start.data[g] + cap];
    for (int i = s->g_hex_start.data[g]; i < s->g_hex_start.data[g + 1]; i++) {
        int x = s->g_hex_list.data[i];
        if (s->open[x] && !narrow(s, x, m)) return 0;
    }
    return 1;
}

static int place(Lister *s, int h, int v) {
    int H = s->h_count;
    s->n[h] = v;
    s->open[h] = 0;
    mark(s, h, s->dom[h], 0);
    s->left[v] -= 1;
    s->placed += 1;
    int g0 = s->hexg_start.data[h], g1 = s->hexg_start.data[h + 1];
    for (int i = g0; i < g1; i++) { /* before anything can fail: unplace undoes all of this */
        int g = s->hexg_list.data[i];
        s->g_sum[g] += s->g_weight.data[g * VALUES + v];
        s->g_open[g] -= 1;
    }
    if (s->left[v] == 0 && v > 0) { /* used up: no open hex may keep it */
        uint32_t holding = s->where[v]; /* the open hexes whose domain holds v */
        while (holding) {
            int q = lowest(holding);
            holding &= holding - 1;
            if (!narrow(s, q, ~(1u << v))) return 0;
        }
    }
    const int32_t *forbid = s->forbid.data + (h * VALUES + v) * H;
    for (int i = s->partner_start.data[h]; i < s->partner_start.data[h + 1]; i++) {
        int q = s->partner_list.data[i];
        if (s->open[q]) {
            uint32_t forbidden = (uint32_t)forbid[q];
            if (forbidden && !narrow(s, q, ~forbidden)) return 0;
        }
    }
    for (int i = g0; i < g1; i++)
        if (!sum_fits(s, s->hexg_list.data[i])) return 0;
    return 1;
}

static void unplace(Lister *s, int h, int v, int at) {
    while (s->trail_len > at) {
        uint32_t old = (uint32_t)s->trail[--s->trail_len];
        int q = s->trail[--s->trail_len];
        mark(s, q, old & ~s->dom[q], 1);
        s->dom[q] = old;
    }
    for (int i = s->hexg_start.data[h]; i < s->hexg_start.data[h + 1]; i++) {
        int g = s->hexg_list.data[i];
        s->g_sum[g] -= s->g_weight.data[g * VALUES + v];
        s->g_open[g] += 1;
    }
    s->left[v] += 1;
    s->placed -= 1;
    s->open[h] = 1;
    mark(s, h, s->dom[h], 1);
    s->n[h] = 0;
}

static int pair_fits(Lister *s, int v) {
    uint32_t rest = s->where[v];
    while (rest) {
        int p = lowest(rest);
        rest &= rest - 1;
        if (rest & ~(uint32_t)s->clash.data[p * VALUES + v]) return 1;
    }
    return 0;
}

static int augment(Lister *s, int v) {
    /* A hex no copy holds yet ends the path at once (the commonest case by far). */
    uint32_t unmatched = s->where[v] & ~s->matched;
    if (unmatched) {
        int h = lowest(unmatched);
        s->matched |= 1u << h;
        s->owner[h] = v;
        return 1;
    }
    uint32_t candidates = s->where[v] & ~s->seen;
    while (candidates) {
        int h = lowest(candidates);
        candidates &= candidates - 1;
        if (s->seen >> h & 1) continue;
        s->seen |= 1u << h;
        if (s->owner[h] < 0 || augment(s, s->owner[h])) {
            s->owner[h] = v;
            return 1;
        }
    }
    return 0;
}

static int consistent(Lister *s) {
    for (int v = 1; v < VALUES; v++)
        if (s->left[v] && popcount32(s->where[v]) < s->left[v]) return 0;
    for (int v = 1; v < VALUES; v++)
        if (s->left[v] == 2 && !pair_fits(s, v)) return 0;
    for (int h = 0; h < s->h_count; h++) s->owner[h] = -1;
    s->matched = 0;
    for (int v = 1; v < VALUES; v++)
        for (int k = 0; k < s->left[v]; k++) {
            s->seen = 0;
            if (!augment(s, v)) return 0;
        }
    return 1;
}

static int choose(Lister *s) {
    for (Py_ssize_t i = 0; i < s->priority.len; i++)
        if (s->left[s->priority.data[i]] > 0) return s->priority.data[i];
    return -1;
}

static void leaf(Lister *s) {
    int H = s->h_count;
    if (s->check != Py_None) {
        PyObject *tokens = PyList_New(H);
        if (tokens == NULL) goto failed;
        for (int h = 0; h < H; h++) PyList_SET_ITEM(tokens, h, PyLong_FromLong(s->n[h]));
        PyObject *verdict = PyObject_CallOneArg(s->check, tokens);
        Py_DECREF(tokens);
        if (verdict == NULL) goto failed;
        int ok = PyObject_IsTrue(verdict);
        Py_DECREF(verdict);
        if (ok < 0) goto failed;
        if (!ok) return;
    }
    s->found += 1;
    if (s->kept_count < s->keep_limit) {
        if ((size_t)s->kept_count == s->kept_cap) {
            size_t cap = s->kept_cap ? s->kept_cap * 2 : 1024;
            int8_t *grown = PyMem_Realloc(s->kept, cap * H);
            if (grown == NULL) {
                PyErr_NoMemory();
                goto failed;
            }
            s->kept = grown;
            s->kept_cap = cap;
        }
        int8_t *row = s->kept + s->kept_count * H;
        for (int h = 0; h < H; h++) row[h] = (int8_t)s->n[h];
        s->kept_count += 1;
    }
    return;
failed:
    s->error = 1;
    s->stop = 1;
}

static void dfs(Lister *s, int run_value, int last) {
    if (s->placed == s->to_place) {
        leaf(s);
        return;
    }
    s->nodes += 1;
    if (s->node_limit && s->nodes > s->node_limit) {
        s->stop = 1;
        return;
    }
    int v, start;
    if (run_value >= 0 && s->left[run_value] > 0) {
        v = run_value;
        start = last + 1;
    } else {
        v = choose(s);
        start = 0;
    }
    /* The open hexes that allow v, from `start` on: the same set before every placement
     * below, as unplace restores what place changed. */
    uint32_t candidates = start < 32 ? s->where[v] & (0xFFFFFFFFu << start) : 0;
    while (candidates) {
        int h = lowest(candidates);
        candidates &= candidates - 1;
        int at = s->trail_len;
        if (place(s, h, v) && consistent(s)) dfs(s, v, h);
        unplace(s, h, v, at);
        if (s->stop) return;
    }
}

/* A view of an int32 array (array('i')), which the caller releases. */
static int table_of(PyObject *object, Py_buffer *view, Table *out, const char *name) {
    if (PyObject_GetBuffer(object, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return 0;
    if (view->itemsize != 4 || (view->format && strcmp(view->format, "i") != 0 &&
                                strcmp(view->format, "l") != 0)) {
        PyErr_Format(PyExc_TypeError, "listers: table %s must be an int32 array", name);
        PyBuffer_Release(view);
        return 0;
    }
    out->data = (const int32_t *)view->buf;
    out->len = view->len / 4;
    return 1;
}

/* Row starts (non-decreasing, from 0) and indexes (0..bound-1) that the searches follow. */
static int starts_ok(const Table *t) {
    if (t->len < 1 || t->data[0] != 0) return 0;
    for (Py_ssize_t i = 1; i < t->len; i++)
        if (t->data[i] < t->data[i - 1]) return 0;
    return 1;
}

static int values_ok(const Table *t, int bound) {
    for (Py_ssize_t i = 0; i < t->len; i++)
        if (t->data[i] < 0 || t->data[i] >= bound) return 0;
    return 1;
}

#define N_TABLES 20
static const char *TABLE_NAMES[N_TABLES] = {
    "left",     "dom",        "open",        "deserts",    "forbid",  "partner_start",
    "partner_list", "g_hex_start", "g_hex_list", "g_const", "g_weight", "g_order",
    "g_hi",     "g_top",      "g_cap_start", "g_cap_list", "hexg_start", "hexg_list",
    "priority", "clash"};

PyDoc_STRVAR(tokens_doc,
             "tokens(h_count, tables, keep_limit, node_limit, check) -> (finished, found, nodes, kept)\n\n"
             "The search of TokenLister.run over the tables of listers.token_tables(): "
             "finished is False when it passed node_limit (0 = none) nodes; kept holds up to "
             "keep_limit layouts, h_count int8 tokens each; check is None or called with each "
             "complete layout (a list of tokens) and must return whether it counts.");

static PyObject *tokens(PyObject *Py_UNUSED(module), PyObject *args) {
    int h_count;
    PyObject *tables, *check;
    long long keep_limit, node_limit;
    if (!PyArg_ParseTuple(args, "iO!LLO", &h_count, &PyTuple_Type, &tables, &keep_limit,
                          &node_limit, &check))
        return NULL;
    if (h_count < 1 || h_count > MAX_HEXES) {
        PyErr_Format(PyExc_ValueError, "listers.tokens: %d hexes (1 to %d)", h_count, MAX_HEXES);
        return NULL;
    }
    if (PyTuple_GET_SIZE(tables) != N_TABLES) {
        PyErr_Format(PyExc_ValueError, "listers.tokens: %d tables expected", N_TABLES);
        return NULL;
    }
    Lister s;
    memset(&s, 0, sizeof s);
    s.h_count = h_count;
    Py_buffer views[N_TABLES];
    Table left, dom, open;
    Table *slots[N_TABLES] = {&left,          &dom,          &open,        &s.deserts,
                              &s.forbid,      &s.partner_start, &s.partner_list,
                              &s.g_hex_start, &s.g_hex_list, &s.g_const,   &s.g_weight,
                              &s.g_order,     &s.g_hi,       &s.g_top,     &s.g_cap_start,
                              &s.g_cap_list,  &s.hexg_start, &s.hexg_list, &s.priority,
                              &s.clash};
    int got = 0;
    PyObject *result = NULL;
    for (; got < N_TABLES; got++) {
        if (!table_of(PyTuple_GET_ITEM(tables, got), &views[got], slots[got], TABLE_NAMES[got]))
            goto done;
    }
    int H = h_count;
    s.g_count = (int)s.g_hi.len;
    int G = s.g_count;
    /* Sizes the search indexes by: a table of the wrong length is a caller's bug. */
    if (left.len != VALUES || dom.len != H || open.len != H || s.forbid.len != H * VALUES * H ||
        s.partner_start.len != H + 1 || s.g_hex_start.len != G + 1 || s.g_const.len != G ||
        s.g_weight.len != G * VALUES || s.g_order.len != G * (VALUES - 1) || s.g_top.len != G ||
        s.g_cap_start.len != G + 1 || s.hexg_start.len != H + 1 || s.clash.len != H * VALUES ||
        s.partner_start.data[H] != s.partner_list.len || s.g_hex_start.data[G] != s.g_hex_list.len ||
        (G && s.g_cap_start.data[G] != s.g_cap_list.len) || s.hexg_start.data[H] != s.hexg_list.len) {
        PyErr_SetString(PyExc_ValueError, "listers.tokens: the tables' lengths do not agree");
        goto done;
    }
    /* Every index the search follows stays inside its table. */
    int indexes_ok = starts_ok(&s.partner_start) && starts_ok(&s.g_hex_start) &&
                     starts_ok(&s.hexg_start) && (!G || starts_ok(&s.g_cap_start)) &&
                     values_ok(&s.partner_list, H) && values_ok(&s.g_hex_list, H) &&
                     values_ok(&s.hexg_list, G) && values_ok(&s.deserts, H) &&
                     values_ok(&s.priority, VALUES) && values_ok(&s.g_order, VALUES);
    for (int g = 0; indexes_ok && g < G; g++)
        indexes_ok = s.g_top.data[g] >= 0 &&
                     s.g_cap_start.data[g + 1] - s.g_cap_start.data[g] == s.g_top.data[g] + 1;
    for (int v = 0; indexes_ok && v < VALUES; v++) indexes_ok = left.data[v] >= 0;
    if (!indexes_ok) {
        PyErr_SetString(PyExc_ValueError, "listers.tokens: a table points outside another");
        goto done;
    }
    for (int v = 0; v < VALUES; v++) s.left[v] = left.data[v];
    for (int h = 0; h < H; h++) {
        s.dom[h] = (uint32_t)dom.data[h] & ((1u << VALUES) - 1); /* `where` has VALUES rows */
        s.open[h] = open.data[h] != 0;
    }
    s.g_sum = PyMem_Calloc(G + 1, sizeof(int32_t));
    s.g_open = PyMem_Calloc(G + 1, sizeof(int32_t));
    /* Along one path every entry removes a value from an open hex's domain: at most 13 per hex. */
    s.trail_cap = 2 * (VALUES * H + 1);
    s.trail = PyMem_Calloc(s.trail_cap, sizeof(int32_t));
    if (!s.g_sum || !s.g_open || !s.trail) {
        PyErr_NoMemory();
        goto done;
    }
    s.keep_limit = keep_limit > 0 ? keep_limit : 0;
    s.node_limit = node_limit > 0 ? node_limit : 0;
    s.check = check;

    /* TokenLister.run: the deserts' 0 first, like a token (its pair rules and sums apply). */
    s.to_place = (int)s.deserts.len;
    for (int v = 0; v < VALUES; v++) s.to_place += s.left[v];
    for (int g = 0; g < G; g++) {
        s.g_sum[g] = s.g_const.data[g];
        s.g_open[g] = s.g_hex_start.data[g + 1] - s.g_hex_start.data[g];
    }
    for (int h = 0; h < H; h++)
        if (s.open[h]) mark(&s, h, s.dom[h], 1);
    for (Py_ssize_t i = 0; i < s.deserts.len; i++) {
        int h = s.deserts.data[i];
        s.open[h] = 1;
        mark(&s, h, s.dom[h], 1);
    }
    int ok = 1;
    for (Py_ssize_t i = 0; i < s.deserts.len; i++) {
        s.left[0] += 1;
        if (!place(&s, s.deserts.data[i], 0)) {
            ok = 0;
            break;
        }
    }
    if (ok && consistent(&s)) dfs(&s, -1, -1);
    if (s.error) goto done;
    {
        PyObject *kept = PyBytes_FromStringAndSize((const char *)s.kept, s.kept_count * H);
        if (kept == NULL) goto done;
        result = Py_BuildValue("(OLLN)", s.stop ? Py_False : Py_True, s.found, s.nodes, kept);
    }
done:
    for (int i = 0; i < got; i++) PyBuffer_Release(&views[i]);
    PyMem_Free(s.g_sum);
    PyMem_Free(s.g_open);
    PyMem_Free(s.trail);
    PyMem_Free(s.kept);
    return result;
}

/* -- terrain layouts ------------------------------------------------------------------------ */

typedef struct {
    int h_count, codes;
    int left[VALUES];
    uint32_t dom[MAX_HEXES];
    Table forbid;       /* [(p * codes + c) * h_count + q]: codes q > p may not take (bits) */
    Table partner_start, partner_list; /* per hex p, the later hexes q its pair rules reach */
    Table tri_start, tri_list;         /* per hex, the triple instances it completes */
    Table tri_hexes;                   /* per instance: its 3 hexes, its table's offset */
    Table tables;                      /* triple tables, codes^3 flags each */
    int t[MAX_HEXES];
    int32_t *trail;
    int trail_len;
    long long found, nodes, node_limit, keep_limit;
    int stop;
    int8_t *kept;
    size_t kept_cap;
    int error;
} Layouts;

static int triples_hold(Layouts *s, int p) {
    for (int i = s->tri_start.data[p]; i < s->tri_start.data[p + 1]; i++) {
        int k = s->tri_list.data[i];
        const int32_t *x = s->tri_hexes.data + 4 * k;
        int c = s->codes;
        if (s->tables.data[x[3] + (s->t[x[0]] * c + s->t[x[1]]) * c + s->t[x[2]]]) return 0;
    }
    return 1;
}

static void keep_layout(Layouts *s) {
    int H = s->h_count;
    s->found += 1;
    if (s->found > s->keep_limit) { /* more than asked for: the caller wants none of them */
        s->stop = 1;
        return;
    }
    if ((size_t)s->found > s->kept_cap) {
        size_t cap = s->kept_cap ? s->kept_cap * 2 : 4096;
        int8_t *grown = PyMem_Realloc(s->kept, cap * H);
        if (grown == NULL) {
            PyErr_NoMemory();
            s->error = 1;
            s->stop = 1;
            return;
        }
        s->kept = grown;
        s->kept_cap = cap;
    }
    int8_t *row = s->kept + (s->found - 1) * H;
    for (int h = 0; h < H; h++) row[h] = (int8_t)s->t[h];
}

static void layouts_dfs(Layouts *s, int p) {
    if (p == s->h_count) {
        keep_layout(s);
        return;
    }
    s->nodes += 1;
    if (s->node_limit && s->nodes > s->node_limit) {
        s->stop = 1;
        return;
    }
    uint32_t values = s->dom[p];
    while (values) {
        int c = lowest(values);
        values &= values - 1;
        if (!s->left[c]) continue;
        s->t[p] = c;
        if (!triples_hold(s, p)) continue;
        int at = s->trail_len, ok = 1;
        const int32_t *forbid = s->forbid.data + (p * s->codes + c) * s->h_count;
        for (int i = s->partner_start.data[p]; i < s->partner_start.data[p + 1]; i++) {
            int q = s->partner_list.data[i];
            uint32_t now = s->dom[q] & ~(uint32_t)forbid[q];
            if (now != s->dom[q]) {
                s->trail[s->trail_len++] = q;
                s->trail[s->trail_len++] = (int32_t)s->dom[q];
                s->dom[q] = now;
                if (!now) {
                    ok = 0;
                    break;
                }
            }
        }
        if (ok) {
            s->left[c] -= 1;
            layouts_dfs(s, p + 1);
            s->left[c] += 1;
        }
        while (s->trail_len > at) {
            uint32_t old = (uint32_t)s->trail[--s->trail_len];
            s->dom[s->trail[--s->trail_len]] = old;
        }
        if (s->stop) return;
    }
}

#define N_LAYOUT_TABLES 9
static const char *LAYOUT_TABLE_NAMES[N_LAYOUT_TABLES] = {
    "left", "dom", "forbid", "partner_start", "partner_list", "tri_start", "tri_list",
    "tri_hexes", "tables"};

PyDoc_STRVAR(terrain_doc,
             "terrain(h_count, codes, tables, keep_limit, node_limit) -> (finished, found, "
             "nodes, kept)\n\n"
             "Every layout of the codes counted in left (codes of them) on h_count hexes under "
             "the tables of listers.terrain_tables(), in increasing order: finished is False "
             "when it passed node_limit (0 = none) nodes or found more than keep_limit layouts; "
             "kept holds the layouts found, up to keep_limit, h_count int8 codes each.");

static PyObject *terrain(PyObject *Py_UNUSED(module), PyObject *args) {
    int h_count, codes;
    PyObject *tables;
    long long keep_limit, node_limit;
    if (!PyArg_ParseTuple(args, "iiO!LL", &h_count, &codes, &PyTuple_Type, &tables, &keep_limit,
                          &node_limit))
        return NULL;
    if (h_count < 1 || h_count > MAX_HEXES || codes < 1 || codes > VALUES) {
        PyErr_Format(PyExc_ValueError, "listers.terrain: %d hexes (1 to %d), %d codes (1 to %d)",
                     h_count, MAX_HEXES, codes, VALUES);
        return NULL;
    }
    if (PyTuple_GET_SIZE(tables) != N_LAYOUT_TABLES) {
        PyErr_Format(PyExc_ValueError, "listers.terrain: %d tables expected", N_LAYOUT_TABLES);
        return NULL;
    }
    Layouts s;
    memset(&s, 0, sizeof s);
    s.h_count = h_count;
    s.codes = codes;
    Table left, dom;
    Table *slots[N_LAYOUT_TABLES] = {&left,        &dom,        &s.forbid,
                                     &s.partner_start, &s.partner_list, &s.tri_start,
                                     &s.tri_list,  &s.tri_hexes, &s.tables};
    Py_buffer views[N_LAYOUT_TABLES];
    int got = 0;
    PyObject *result = NULL;
    for (; got < N_LAYOUT_TABLES; got++)
        if (!table_of(PyTuple_GET_ITEM(tables, got), &views[got], slots[got],
                      LAYOUT_TABLE_NAMES[got]))
            goto done;
    int H = h_count, K = codes;
    Py_ssize_t instances = s.tri_hexes.len / 4;
    if (left.len != K || dom.len != H || s.forbid.len != H * K * H || s.partner_start.len != H + 1 ||
        s.partner_start.data[H] != s.partner_list.len || s.tri_start.len != H + 1 ||
        s.tri_start.data[H] != s.tri_list.len || s.tri_hexes.len != 4 * instances) {
        PyErr_SetString(PyExc_ValueError, "listers.terrain: the tables' lengths do not agree");
        goto done;
    }
    int indexes_ok = starts_ok(&s.partner_start) && starts_ok(&s.tri_start) &&
                     values_ok(&s.partner_list, H) && values_ok(&s.tri_list, (int)instances);
    for (Py_ssize_t k = 0; indexes_ok && k < instances; k++) {
        const int32_t *x = s.tri_hexes.data + 4 * k;
        indexes_ok = x[0] >= 0 && x[0] < H && x[1] >= 0 && x[1] < H && x[2] >= 0 && x[2] < H &&
                     x[3] >= 0 && x[3] + K * K * K <= s.tables.len;
    }
    for (int c = 0; indexes_ok && c < K; c++) indexes_ok = left.data[c] >= 0;
    if (!indexes_ok) {
        PyErr_SetString(PyExc_ValueError, "listers.terrain: a table points outside another");
        goto done;
    }
    for (int c = 0; c < K; c++) s.left[c] = left.data[c];
    for (int h = 0; h < H; h++) s.dom[h] = (uint32_t)dom.data[h] & ((1u << K) - 1);
    s.trail = PyMem_Calloc(2 * (K * H + 1), sizeof(int32_t));
    if (!s.trail) {
        PyErr_NoMemory();
        goto done;
    }
    s.keep_limit = keep_limit > 0 ? keep_limit : 0;
    s.node_limit = node_limit > 0 ? node_limit : 0;
    layouts_dfs(&s, 0);
    if (s.error) goto done;
    {
        long long kept_count = s.found < s.keep_limit ? s.found : s.keep_limit;
        PyObject *kept = PyBytes_FromStringAndSize((const char *)s.kept, kept_count * H);
        if (kept == NULL) goto done;
        result = Py_BuildValue("(OLLN)", s.stop ? Py_False : Py_True, s.found, s.nodes, kept);
    }
done:
    for (int i = 0; i < got; i++) PyBuffer_Release(&views[i]);
    PyMem_Free(s.trail);
    PyMem_Free(s.kept);
    return result;
}

static PyMethodDef methods[] = {{"tokens", tokens, METH_VARARGS, tokens_doc},
                                {"terrain", terrain, METH_VARARGS, terrain_doc},
                                {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_listers", "Depth-first listings in C (see listers.py and listers.c).",
    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__listers(void) {
    PyObject *m = PyModule_Create(&module_def);
    if (m && PyModule_AddStringConstant(m, "SOURCE_SHA256", SOURCE_SHA256) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
