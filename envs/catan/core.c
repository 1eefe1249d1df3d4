/* The native Catan core (issue 33), built as ludolab.envs.catan._core; envs/catan/native.py
 * loads it, and runs the Python reference in its place when it is missing, stale (the source
 * below, or a Python file it states a second time, changed since it was built: SOURCE_SHA256,
 * MIRRORS_SHA256) or switched off (LUDOLAB_PURE_PYTHON=1).
 *
 * One concept in one file (about 3,200 lines): a second statement of the reference engine
 * (envs/catan/engine.py), with the random and greedy agents, the search's win model and its
 * determinisations and flat play-outs, held to the Python action for action. One translation unit keeps every helper static (inlined, nothing
 * exported but the module's init) and the sanitizer build one compile.
 *
 * Its random stream, Stream, is envs/stream.h's (shared with the Masters Gallery core): step for
 * step the same numbers as CPython's random.Random, so that a native engine can play the
 * reference engine's games action for action: the dice (random()), the development-card
 * shuffle (shuffle()) and the steals (randbelow()). tests/test_native_core.py holds every method
 * to random.Random on many seeds, and runs them once under AddressSanitizer and
 * UndefinedBehaviorSanitizer (a slow test).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#ifndef MIRRORS_SHA256 /* the Python files this states a second time, "path=sha256;..." */
#define MIRRORS_SHA256 ""
#endif
#ifndef SOURCE_SHA256
#define SOURCE_SHA256 ""
#endif

#define STREAM_TYPE_NAME "ludolab.envs.catan._core.Stream"
#include "../stream.h"

/* ---------------------------------------------------------------------------- the rules
 *
 * The rules of envs/catan/engine.py (the reference: its docstring says what the rules are and
 * which readings it takes), statement for statement in a flat state with no pointers but two
 * trace buffers, so that a clone is one memcpy. Where the order of a legal list or of a random
 * draw matters, the comments name the reference's method whose order is kept.
 */

#define N_HEXES 19
#define N_NODES 54
#define N_PATHS 72
#define N_RES 5
#define MAX_SEATS 4
#define N_DEV 5
#define DECK_SIZE 25

enum {
    A_END_TURN = 0, A_ROLL = 1, A_BUY_DEV = 2, A_KNIGHT = 3, A_ROAD_BUILDING = 4,
    A_SETTLEMENT = 5, A_CITY = 59, A_ROAD = 113, A_ROBBER = 185, A_STEAL = 204,
    A_DISCARD = 208, A_YOP = 213, A_MONOPOLY = 228, A_MARITIME = 233, A_OFFER = 253,
    A_ACCEPT = 293, A_DECLINE = 294, A_CONFIRM = 295, A_CANCEL = 299, N_ACTIONS = 300
};
enum {
    SETUP_SETTLEMENT, SETUP_ROAD, PRE_ROLL, MAIN, DISCARD, MOVE_ROBBER, STEAL, ROAD_BUILDING,
    TRADE_RESPONSE, TRADE_CONFIRM, GAME_OVER
};
enum { KNIGHT, VICTORY_POINT, ROAD_BUILDING_CARD, YEAR_OF_PLENTY, MONOPOLY };

static const int DEV_DECK_COUNTS[N_DEV] = {14, 5, 2, 2, 2};
static const int ROAD_COST[N_RES] = {1, 0, 0, 1, 0};
static const int SETTLEMENT_COST[N_RES] = {1, 1, 1, 1, 0};
static const int CITY_COST[N_RES] = {0, 0, 2, 0, 3};
static const int DEV_COST[N_RES] = {0, 1, 1, 0, 1};
#define CARDS_PER_RESOURCE 19
#define LONGEST_ROAD_MIN 5
#define LARGEST_ARMY_MIN 3

/* The standard layout's topology (topology.py), loaded once from Python: set_topology(). */
static int topology_loaded = 0;
static int8_t hex_corners[N_HEXES][6];
static int8_t node_hexes[N_NODES][3], n_node_hexes[N_NODES];
static int8_t node_neighbours[N_NODES][3], n_node_neighbours[N_NODES];
static int8_t node_paths[N_NODES][3], n_node_paths[N_NODES];
static int8_t path_nodes[N_PATHS][2];
static uint64_t neighbour_mask[N_NODES]; /* the node and its neighbours */

/* actions.TRADE_PAIRS, YOP_PAIRS: (give, get) with give != get; unordered pairs r1 <= r2. */
static int8_t trade_give[20], trade_get[20], yop_r1[15], yop_r2[15];

static void init_action_tables(void) {
    int k = 0;
    for (int give = 0; give < N_RES; give++)
        for (int get = 0; get < N_RES; get++)
            if (give != get) {
                trade_give[k] = (int8_t)give;
                trade_get[k] = (int8_t)get;
                k++;
            }
    k = 0;
    for (int r1 = 0; r1 < N_RES; r1++)
        for (int r2 = r1; r2 < N_RES; r2++) {
            yop_r1[k] = (int8_t)r1;
            yop_r2[k] = (int8_t)r2;
            k++;
        }
}

typedef struct {
    /* options */
    int n, vp_to_win, discard_limit, friendly_robber, turn_limit /* -1: none */;
    int offers_per_turn, cut_holder_keeps_ties;
    /* board */
    int8_t hex_resource[N_HEXES], hex_number[N_HEXES], harbor_at[N_NODES];
    int8_t number_hexes[13][N_HEXES], n_number_hexes[13];
    /* pieces */
    int robber;
    int8_t owner[N_NODES], building[N_NODES], road_owner[N_PATHS];
    uint64_t site_free, network[MAX_SEATS];
    int n_roads[MAX_SEATS];
    /* cards */
    int bank[N_RES], hands[MAX_SEATS][N_RES], hand_size[MAX_SEATS];
    int8_t dev_deck[DECK_SIZE];
    int deck_len;
    int dev_hand[MAX_SEATS][N_DEV], dev_new[MAX_SEATS][N_DEV], dev_played[MAX_SEATS][N_DEV];
    int rates[MAX_SEATS][N_RES];
    int settlements_left[MAX_SEATS], cities_left[MAX_SEATS], roads_left[MAX_SEATS];
    int road_length[MAX_SEATS], vp_public[MAX_SEATS], longest_road, largest_army;
    /* turn state */
    int phase, current, acting, turns, winner /* -1: none */, truncated, n_actions;
    int setup_step, last_settlement, dev_played_this_turn, offers_this_turn;
    int discarding[MAX_SEATS], n_discarding, to_discard[MAX_SEATS], after_robber;
    int victims[MAX_SEATS], n_victims, free_roads, after_road_building;
    int has_offer, offer_give, offer_n, offer_get;
    int responders[MAX_SEATS], n_responders, accepted[MAX_SEATS], n_accepted;
    /* traces */
    int robber_moves, sevens, maritime_trades, domestic_trades;
    int first_settlement_turn[MAX_SEATS], first_city_turn[MAX_SEATS]; /* -1: none */
    int produced[MAX_SEATS][N_RES];
    MT dice_rng, steal_rng;
    int8_t faces[8]; /* die faces to roll before the stream's: set_state(_forced_dice) */
    int n_faces;
    int8_t *dice, *vp_rows; /* the dice rolled; victory points after every turn (n per row) */
    int n_dice, cap_dice, n_vp_rows, cap_vp_rows;
    int failed; /* out of memory for a trace: the game cannot go on */
} State;

static int push_trace(int8_t **buffer, int *count, int *capacity, int width) {
    if (*count == *capacity) {
        int more = *capacity ? 2 * *capacity : 256;
        int8_t *grown = PyMem_Realloc(*buffer, (size_t)more * (size_t)width);
        if (grown == NULL) return -1;
        *buffer = grown;
        *capacity = more;
    }
    (*count)++;
    return 0;
}

static int other_end(int e, int v) {
    return path_nodes[e][0] == v ? path_nodes[e][1] : path_nodes[e][0];
}

static int victory_points(const State *g, int q) {
    return g->vp_public[q] + g->dev_hand[q][VICTORY_POINT];
}

static void record_vp_row(State *g) {
    if (push_trace(&g->vp_rows, &g->n_vp_rows, &g->cap_vp_rows, g->n) < 0) {
        g->failed = 1;
        return;
    }
    int8_t *row = g->vp_rows + (size_t)(g->n_vp_rows - 1) * (size_t)g->n;
    for (int q = 0; q < g->n; q++) row[q] = (int8_t)victory_points(g, q);
}

/* -- queries */

/* Game.road_spots: as a 72-bit set (lo: paths 0..63, hi: 64..71). */
static void road_spots(const State *g, int seat, uint64_t *lo, uint64_t *hi) {
    *lo = *hi = 0;
    if (g->phase == SETUP_ROAD) {
        int v = g->last_settlement;
        for (int i = 0; v >= 0 && i < n_node_paths[v]; i++) { /* (v < 0: a state set by hand) */
            int e = node_paths[v][i];
            if (g->road_owner[e] < 0) {
                if (e < 64) *lo |= 1ULL << e;
                else *hi |= 1ULL << (e - 64);
            }
        }
        return;
    }
    uint64_t net = g->network[seat];
    while (net) {
        int v = __builtin_ctzll(net);
        net &= net - 1;
        if (g->owner[v] >= 0 && g->owner[v] != seat) continue; /* not past a rival building */
        for (int i = 0; i < n_node_paths[v]; i++) {
            int e = node_paths[v][i];
            if (g->road_owner[e] < 0) {
                if (e < 64) *lo |= 1ULL << e;
                else *hi |= 1ULL << (e - 64);
            }
        }
    }
}

static int emit_roads(uint64_t lo, uint64_t hi, int16_t *out) {
    int k = 0;
    while (lo) {
        out[k++] = (int16_t)(A_ROAD + __builtin_ctzll(lo));
        lo &= lo - 1;
    }
    while (hi) {
        out[k++] = (int16_t)(A_ROAD + 64 + __builtin_ctzll(hi));
        hi &= hi - 1;
    }
    return k;
}

static int emit_nodes(uint64_t nodes, int base, int16_t *out) {
    int k = 0;
    while (nodes) {
        out[k++] = (int16_t)(base + __builtin_ctzll(nodes));
        nodes &= nodes - 1;
    }
    return k;
}

static uint64_t settlement_spots(const State *g, int seat) {
    if (g->phase == SETUP_SETTLEMENT) return g->site_free;
    return g->network[seat] & g->site_free;
}

/* Game._dev_plays, in its order (increasing). */
static int dev_plays(const State *g, int p, int16_t *out) {
    const int *have = g->dev_hand[p], *fresh = g->dev_new[p];
    int k = 0;
    if (have[KNIGHT] > fresh[KNIGHT]) out[k++] = A_KNIGHT;
    if (have[ROAD_BUILDING_CARD] > fresh[ROAD_BUILDING_CARD] && g->roads_left[p]) {
        uint64_t lo, hi;
        road_spots(g, p, &lo, &hi);
        if (lo | hi) out[k++] = A_ROAD_BUILDING;
    }
    if (have[YEAR_OF_PLENTY] > fresh[YEAR_OF_PLENTY])
        for (int i = 0; i < 15; i++) {
            int r1 = yop_r1[i], r2 = yop_r2[i];
            if (g->bank[r1] >= 1 + (r1 == r2) && g->bank[r2] >= 1) out[k++] = (int16_t)(A_YOP + i);
        }
    if (have[MONOPOLY] > fresh[MONOPOLY])
        for (int r = 0; r < N_RES; r++) out[k++] = (int16_t)(A_MONOPOLY + r);
    return k;
}

/* Game._main_actions: in increasing index order. */
static int main_actions(const State *g, int p, int16_t *out) {
    const int *hand = g->hands[p];
    int lumber = hand[0], wool = hand[1], grain = hand[2], brick = hand[3], ore = hand[4];
    int k = 0;
    out[k++] = A_END_TURN;
    if (wool && grain && ore && g->deck_len) out[k++] = A_BUY_DEV;
    int16_t plays[32];
    int n_plays = g->dev_played_this_turn ? 0 : dev_plays(g, p, plays);
    int i = 0;
    for (; i < n_plays && plays[i] < A_SETTLEMENT; i++) out[k++] = plays[i];
    if (lumber && brick && wool && grain && g->settlements_left[p])
        k += emit_nodes(settlement_spots(g, p), A_SETTLEMENT, out + k);
    if (grain >= 2 && ore >= 3 && g->cities_left[p]) {
        uint64_t mine = 0, net = g->network[p];
        while (net) {
            int v = __builtin_ctzll(net);
            net &= net - 1;
            if (g->owner[v] == p && g->building[v] == 1) mine |= 1ULL << v;
        }
        k += emit_nodes(mine, A_CITY, out + k);
    }
    if (lumber && brick && g->roads_left[p]) {
        uint64_t lo, hi;
        road_spots(g, p, &lo, &hi);
        k += emit_roads(lo, hi, out + k);
    }
    for (; i < n_plays; i++) out[k++] = plays[i];
    for (int t = 0; t < 20; t++)
        if (hand[trade_give[t]] >= g->rates[p][trade_give[t]] && g->bank[trade_get[t]] > 0)
            out[k++] = (int16_t)(A_MARITIME + t);
    if (g->offers_this_turn < g->offers_per_turn)
        for (int n_give = 1; n_give <= 2; n_give++)
            for (int t = 0; t < 20; t++)
                if (hand[trade_give[t]] >= n_give)
                    out[k++] = (int16_t)(A_OFFER + (n_give - 1) * 20 + t);
    return k;
}

/* Game._robber_hexes (friendly robber) or every other hex. */
static int robber_hexes(const State *g, int16_t *out) {
    int k = 0;
    if (g->friendly_robber) {
        int p = g->current;
        for (int h = 0; h < N_HEXES; h++) {
            if (h == g->robber) continue;
            int spared = 0;
            for (int c = 0; c < 6; c++) {
                int q = g->owner[hex_corners[h][c]];
                if (q >= 0 && q != p && g->vp_public[q] < 3) spared = 1;
            }
            if (!spared) out[k++] = (int16_t)(A_ROBBER + h);
        }
        if (k) return k;
    }
    for (int h = 0; h < N_HEXES; h++)
        if (h != g->robber) out[k++] = (int16_t)(A_ROBBER + h);
    return k;
}

static int forced_action(const State *g) {
    if (g->phase != TRADE_RESPONSE || !g->has_offer) return -1;
    return g->hands[g->acting][g->offer_get] ? -1 : A_DECLINE;
}

/* Game._compute_legal: the legal actions of the seat acting, in increasing order. out must
 * hold N_ACTIONS entries. */
static int legal_actions(const State *g, int16_t *out) {
    int p = g->acting, k = 0;
    switch (g->phase) {
    case MAIN:
        return main_actions(g, p, out);
    case TRADE_RESPONSE:
        if (forced_action(g) >= 0) {
            out[0] = A_DECLINE;
            return 1;
        }
        out[0] = A_ACCEPT;
        out[1] = A_DECLINE;
        return 2;
    case DISCARD:
        for (int r = 0; r < N_RES; r++)
            if (g->hands[p][r]) out[k++] = (int16_t)(A_DISCARD + r);
        return k;
    case PRE_ROLL:
        out[k++] = A_ROLL;
        if (!g->dev_played_this_turn) k += dev_plays(g, p, out + k);
        return k;
    case MOVE_ROBBER:
        return robber_hexes(g, out);
    case STEAL:
        for (int i = 0; i < g->n_victims; i++) out[k++] = (int16_t)(A_STEAL + g->victims[i]);
        return k;
    case ROAD_BUILDING:
    case SETUP_ROAD: {
        uint64_t lo, hi;
        road_spots(g, p, &lo, &hi);
        return emit_roads(lo, hi, out);
    }
    case SETUP_SETTLEMENT:
        return emit_nodes(settlement_spots(g, p), A_SETTLEMENT, out);
    case TRADE_CONFIRM: {
        int seats = 0;
        for (int i = 0; i < g->n_accepted; i++) seats |= 1 << g->accepted[i];
        for (int q = 0; q < MAX_SEATS; q++)
            if (seats >> q & 1) out[k++] = (int16_t)(A_CONFIRM + q);
        out[k++] = A_CANCEL;
        return k;
    }
    default:
        return 0;
    }
}

/* Whether a is among main_actions(g, p), without listing them: the greedy agent asks about a
 * few actions at each of its many decisions in the main phase. */
static int main_legal(const State *g, int p, int a) {
    const int *hand = g->hands[p];
    int lumber = hand[0], wool = hand[1], grain = hand[2], brick = hand[3], ore = hand[4];
    if (a == A_END_TURN) return 1;
    if (a == A_BUY_DEV) return wool && grain && ore && g->deck_len;
    if (a < A_SETTLEMENT || (a >= A_YOP && a < A_MARITIME)) {
        if (g->dev_played_this_turn) return 0;
        int16_t plays[32];
        int n = dev_plays(g, p, plays);
        for (int i = 0; i < n; i++)
            if (plays[i] == a) return 1;
        return 0;
    }
    if (a < A_CITY)
        return lumber && brick && wool && grain && g->settlements_left[p] &&
               (settlement_spots(g, p) >> (a - A_SETTLEMENT) & 1);
    if (a < A_ROAD) {
        int v = a - A_CITY;
        return grain >= 2 && ore >= 3 && g->cities_left[p] && (g->network[p] >> v & 1) &&
               g->owner[v] == p && g->building[v] == 1;
    }
    if (a < A_ROBBER) {
        if (!(lumber && brick && g->roads_left[p])) return 0;
        uint64_t lo, hi;
        road_spots(g, p, &lo, &hi);
        int e = a - A_ROAD;
        return (int)(e < 64 ? lo >> e & 1 : hi >> (e - 64) & 1);
    }
    if (a >= A_MARITIME && a < A_OFFER) {
        int t = a - A_MARITIME;
        return hand[trade_give[t]] >= g->rates[p][trade_give[t]] && g->bank[trade_get[t]] > 0;
    }
    if (a >= A_OFFER && a < A_ACCEPT) {
        int t = (a - A_OFFER) % 20, n_give = 1 + (a - A_OFFER) / 20;
        return g->offers_this_turn < g->offers_per_turn && hand[trade_give[t]] >= n_give;
    }
    return 0;
}

static int is_legal(const State *g, int action) {
    if (action < 0 || action >= N_ACTIONS || g->phase == GAME_OVER) return 0;
    if (g->phase == MAIN) return main_legal(g, g->acting, action);
    int16_t legal[N_ACTIONS];
    int n = legal_actions(g, legal);
    for (int i = 0; i < n; i++)
        if (legal[i] == action) return 1;
    return 0;
}

/* -- longest road */

/* The longest trail (no road twice) from v that has already walked len roads; trails may end
 * at, but not pass, a rival's building. Returns 1 once best reaches most (no trail is longer). */
static int trail(const State *g, int p, int v, int len, uint8_t *used, int most, int *best) {
    if (len > *best) {
        *best = len;
        if (len == most) return 1;
    }
    if (len && g->owner[v] >= 0 && g->owner[v] != p) return 0;
    for (int i = 0; i < n_node_paths[v]; i++) {
        int e = node_paths[v][i];
        if (g->road_owner[e] != p || used[e]) continue;
        used[e] = 1;
        int done = trail(g, p, other_end(e, v), len + 1, used, most, best);
        used[e] = 0;
        if (done) return 1;
    }
    return 0;
}

/* Game._longest_road: from every node a road of p touches (a superset of the reference's
 * starts, so the same maximum). */
static int longest_road(const State *g, int p) {
    int most = g->n_roads[p];
    if (most < 2) return most;
    uint8_t used[N_PATHS] = {0};
    int best = 0;
    uint64_t net = g->network[p];
    while (net) {
        int v = __builtin_ctzll(net);
        net &= net - 1;
        int has_road = 0;
        for (int i = 0; i < n_node_paths[v]; i++) has_road |= g->road_owner[node_paths[v][i]] == p;
        if (has_road && trail(g, p, v, 0, used, most, &best)) break;
    }
    return best;
}

static void award_longest_road(State *g, int cut_holder) {
    int *lengths = g->road_length, holder = g->longest_road, top = 0, n_top = 0, leader = -1;
    for (int q = 0; q < g->n; q++) top = lengths[q] > top ? lengths[q] : top;
    for (int q = 0; q < g->n; q++)
        if (lengths[q] == top) {
            n_top++;
            leader = q;
        }
    int single = n_top == 1 && top >= LONGEST_ROAD_MIN ? leader : -1;
    int now;
    if (holder >= 0 && !cut_holder)
        now = single >= 0 && lengths[single] > lengths[holder] ? single : holder;
    else if (cut_holder && g->cut_holder_keeps_ties && lengths[holder] == top &&
             top >= LONGEST_ROAD_MIN)
        now = holder;
    else
        now = single;
    if (now != holder) {
        if (holder >= 0) g->vp_public[holder] -= 2;
        if (now >= 0) g->vp_public[now] += 2;
        g->longest_road = now;
    }
}

/* -- building */

static void pay(State *g, int p, const int *cost) {
    for (int r = 0; r < N_RES; r++) {
        g->hands[p][r] -= cost[r];
        g->bank[r] += cost[r];
        g->hand_size[p] -= cost[r];
    }
}

static void gain(State *g, int p, int r, int k) {
    g->hands[p][r] += k;
    g->bank[r] -= k;
    g->hand_size[p] += k;
}

static void place_settlement(State *g, int p, int v) {
    g->owner[v] = (int8_t)p;
    g->building[v] = 1;
    g->site_free &= ~neighbour_mask[v];
    g->settlements_left[p]--;
    g->vp_public[p]++;
    g->network[p] |= 1ULL << v;
    int code = g->harbor_at[v];
    if (code == 0) {
        for (int r = 0; r < N_RES; r++)
            if (g->rates[p][r] > 3) g->rates[p][r] = 3;
    } else if (code > 0) {
        g->rates[p][code - 1] = 2;
    }
    /* A settlement cuts every rival road passing through v (two of its roads meet there). */
    int count[MAX_SEATS] = {0}, cut[MAX_SEATS] = {0}, any = 0;
    for (int i = 0; i < n_node_paths[v]; i++) {
        int q = g->road_owner[node_paths[v][i]];
        if (q >= 0) count[q]++;
    }
    for (int q = 0; q < g->n; q++)
        if (q != p && count[q] >= 2) cut[q] = any = 1;
    if (any) {
        int holder = g->longest_road;
        int before = holder >= 0 ? g->road_length[holder] : 0;
        for (int q = 0; q < g->n; q++)
            if (cut[q]) g->road_length[q] = longest_road(g, q);
        int shortened = holder >= 0 && cut[holder] && g->road_length[holder] < before;
        award_longest_road(g, shortened);
    }
}

static void build_road(State *g, int p, int e) {
    g->road_owner[e] = (int8_t)p;
    g->n_roads[p]++;
    g->roads_left[p]--;
    g->network[p] |= 1ULL << path_nodes[e][0] | 1ULL << path_nodes[e][1];
    int length = longest_road(g, p);
    if (length != g->road_length[p]) {
        g->road_length[p] = length;
        if (length >= LONGEST_ROAD_MIN) award_longest_road(g, 0);
    }
}

/* -- the end */

static void finish(State *g, int winner) {
    g->winner = winner;
    g->phase = GAME_OVER;
    record_vp_row(g);
    g->turns++; /* the winning turn counts as played */
}

static void check_win(State *g) {
    int p = g->current;
    if (g->phase != GAME_OVER && victory_points(g, p) >= g->vp_to_win) finish(g, p);
}

/* -- dice, robber */

/* Game._produce and _produce_short: on a shortage of a resource nobody gets it, unless one
 * seat alone is owed it, who gets what is left. */
static void produce(State *g, int number) {
    int owed[N_RES][MAX_SEATS];
    memset(owed, 0, sizeof owed);
    int any = 0;
    for (int i = 0; i < g->n_number_hexes[number]; i++) {
        int h = g->number_hexes[number][i];
        if (h == g->robber) continue;
        int r = g->hex_resource[h];
        if (r < 0) continue; /* (a desert has no number: Board refuses one) */
        for (int c = 0; c < 6; c++) {
            int v = hex_corners[h][c], q = g->owner[v];
            if (q >= 0) {
                owed[r][q] += g->building[v];
                any = 1;
            }
        }
    }
    if (!any) return;
    for (int r = 0; r < N_RES; r++) {
        int total = 0, seats = 0;
        for (int q = 0; q < g->n; q++) {
            total += owed[r][q];
            seats += owed[r][q] > 0;
        }
        if (!total) continue;
        if (total > g->bank[r]) {
            if (seats > 1) continue;
            for (int q = 0; q < g->n; q++)
                if (owed[r][q]) owed[r][q] = g->bank[r];
        }
        for (int q = 0; q < g->n; q++)
            if (owed[r][q]) {
                gain(g, q, r, owed[r][q]);
                g->produced[q][r] += owed[r][q];
            }
    }
}

/* One die, 0..5, as the reference reads it: int(random() * 6). */
static int die(State *g) {
    if (g->n_faces) {
        int face = g->faces[0];
        memmove(g->faces, g->faces + 1, (size_t)--g->n_faces);
        return face - 1;
    }
    return (int)(mt_random(&g->dice_rng) * 6);
}

static void roll(State *g) {
    int first = die(g), second = die(g);
    int total = first + second + 2;
    if (push_trace(&g->dice, &g->n_dice, &g->cap_dice, 1) < 0) {
        g->failed = 1;
        return;
    }
    g->dice[g->n_dice - 1] = (int8_t)total;
    if (total == 7) {
        g->sevens++;
        int limit = g->discard_limit > 1 ? g->discard_limit : 1;
        g->n_discarding = 0;
        for (int k = 0; k < g->n; k++) {
            int q = (g->current + k) % g->n;
            if (g->hand_size[q] > limit) {
                g->discarding[g->n_discarding++] = q;
                g->to_discard[q] = g->hand_size[q] / 2;
            }
        }
        g->after_robber = MAIN;
        if (g->n_discarding) {
            g->phase = DISCARD;
            g->acting = g->discarding[0];
        } else {
            g->phase = MOVE_ROBBER;
        }
        return;
    }
    produce(g, total);
    g->phase = MAIN;
}

static void steal(State *g, int p, int victim) {
    if (g->hand_size[victim] <= 0) return; /* (only in a state set by hand: nothing to take) */
    int *hand = g->hands[victim];
    int k = (int)mt_below(&g->steal_rng, (uint64_t)g->hand_size[victim]), r;
    for (r = 0; r < N_RES - 1; r++) {
        if (k < hand[r]) break;
        k -= hand[r];
    }
    hand[r]--;
    g->hand_size[victim]--;
    g->hands[p][r]++;
    g->hand_size[p]++;
}

static void move_robber(State *g, int p, int h) {
    g->robber = h;
    g->robber_moves++;
    int seats = 0;
    for (int c = 0; c < 6; c++) {
        int q = g->owner[hex_corners[h][c]];
        if (q >= 0 && q != p && g->hand_size[q]) seats |= 1 << q;
    }
    int victims[MAX_SEATS], n_victims = 0;
    for (int q = 0; q < MAX_SEATS; q++)
        if (seats >> q & 1) victims[n_victims++] = q;
    if (n_victims > 1) { /* (kept only for a choice, as the reference keeps them) */
        memcpy(g->victims, victims, sizeof victims);
        g->n_victims = n_victims;
        g->phase = STEAL;
        return;
    }
    if (n_victims) steal(g, p, victims[0]);
    g->phase = g->after_robber;
}

static void discard(State *g, int p, int r) {
    g->hands[p][r]--;
    g->bank[r]++;
    g->hand_size[p]--;
    if (--g->to_discard[p] == 0 && g->n_discarding > 0) {
        memmove(g->discarding, g->discarding + 1, sizeof(int) * (size_t)(--g->n_discarding));
        if (g->n_discarding) {
            g->acting = g->discarding[0];
        } else {
            g->acting = g->current;
            g->phase = MOVE_ROBBER;
        }
    }
}

/* -- development cards */

static void use_card(State *g, int p, int card) {
    g->dev_hand[p][card]--;
    g->dev_played[p][card]++;
}

static void award_largest_army(State *g, int p) {
    int knights = g->dev_played[p][KNIGHT], holder = g->largest_army;
    if (holder == p || knights < LARGEST_ARMY_MIN) return;
    if (holder < 0 || knights > g->dev_played[holder][KNIGHT]) {
        if (holder >= 0) g->vp_public[holder] -= 2;
        g->vp_public[p] += 2;
        g->largest_army = p;
    }
}

static void play_dev(State *g, int p, int a, int phase) {
    g->dev_played_this_turn = 1;
    if (a == A_KNIGHT) {
        use_card(g, p, KNIGHT);
        award_largest_army(g, p);
        g->after_robber = phase;
        g->phase = MOVE_ROBBER;
    } else if (a == A_ROAD_BUILDING) {
        use_card(g, p, ROAD_BUILDING_CARD);
        g->free_roads = 2;
        g->after_road_building = phase;
        g->phase = ROAD_BUILDING;
    } else if (a < A_MONOPOLY) {
        use_card(g, p, YEAR_OF_PLENTY);
        gain(g, p, yop_r1[a - A_YOP], 1);
        gain(g, p, yop_r2[a - A_YOP], 1);
    } else {
        use_card(g, p, MONOPOLY);
        int r = a - A_MONOPOLY;
        for (int q = 0; q < g->n; q++)
            if (q != p && g->hands[q][r]) {
                int k = g->hands[q][r];
                g->hands[q][r] = 0;
                g->hand_size[q] -= k;
                g->hands[p][r] += k;
                g->hand_size[p] += k;
            }
    }
}

/* -- turns */

static void start_turn(State *g) {
    int p = g->current;
    if (victory_points(g, p) >= g->vp_to_win) {
        finish(g, p); /* reached on another seat's turn: the win comes before the roll */
        return;
    }
    const int *have = g->dev_hand[p];
    if (have[KNIGHT] || have[ROAD_BUILDING_CARD] || have[YEAR_OF_PLENTY] || have[MONOPOLY]) {
        g->phase = PRE_ROLL;
        int16_t plays[32];
        if (!g->dev_played_this_turn && dev_plays(g, p, plays)) return; /* a decision */
    }
    roll(g);
}

static void end_turn(State *g) {
    record_vp_row(g);
    int p = g->current;
    memset(g->dev_new[p], 0, sizeof g->dev_new[p]);
    g->dev_played_this_turn = 0;
    g->offers_this_turn = 0;
    g->turns++;
    if (g->turn_limit >= 0 && g->turns >= g->turn_limit) {
        g->truncated = 1;
        g->phase = GAME_OVER;
        return;
    }
    g->current = g->acting = (p + 1) % g->n;
    start_turn(g);
}

static void close_offer(State *g) {
    g->has_offer = 0;
    g->n_accepted = 0;
    g->acting = g->current;
    g->phase = MAIN;
}

static void main_step(State *g, int p, int a) {
    if (a == A_END_TURN) {
        end_turn(g);
    } else if (A_ROAD <= a && a < A_ROBBER) {
        pay(g, p, ROAD_COST);
        build_road(g, p, a - A_ROAD);
    } else if (A_SETTLEMENT <= a && a < A_CITY) {
        pay(g, p, SETTLEMENT_COST);
        place_settlement(g, p, a - A_SETTLEMENT);
        if (g->first_settlement_turn[p] < 0) g->first_settlement_turn[p] = g->turns;
    } else if (A_CITY <= a && a < A_ROAD) {
        pay(g, p, CITY_COST);
        g->building[a - A_CITY] = 2;
        g->cities_left[p]--;
        g->settlements_left[p]++;
        g->vp_public[p]++;
        if (g->first_city_turn[p] < 0) g->first_city_turn[p] = g->turns;
    } else if (a == A_BUY_DEV) {
        pay(g, p, DEV_COST);
        int card = g->dev_deck[--g->deck_len];
        g->dev_hand[p][card]++;
        g->dev_new[p][card]++;
    } else if (A_MARITIME <= a && a < A_OFFER) {
        int give = trade_give[a - A_MARITIME], get = trade_get[a - A_MARITIME];
        int rate = g->rates[p][give];
        g->hands[p][give] -= rate;
        g->bank[give] += rate;
        g->hands[p][get]++;
        g->bank[get]--;
        g->hand_size[p] += 1 - rate;
        g->maritime_trades++;
    } else if (A_OFFER <= a && a < A_ACCEPT) {
        int t = (a - A_OFFER) % 20;
        g->has_offer = 1;
        g->offer_give = trade_give[t];
        g->offer_n = (a - A_OFFER) / 20 + 1;
        g->offer_get = trade_get[t];
        g->offers_this_turn++;
        /* every other seat is asked, in turn order */
        g->n_responders = 0;
        for (int k = 2; k < g->n; k++) g->responders[g->n_responders++] = (p + k) % g->n;
        g->n_accepted = 0;
        g->phase = TRADE_RESPONSE;
        g->acting = (p + 1) % g->n;
    } else {
        play_dev(g, p, a, MAIN);
    }
}

static void respond(State *g, int p, int accept) {
    if (accept && g->n_accepted < MAX_SEATS) g->accepted[g->n_accepted++] = p;
    if (g->n_responders) {
        g->acting = g->responders[0];
        memmove(g->responders, g->responders + 1, sizeof(int) * (size_t)(--g->n_responders));
    } else if (g->n_accepted) {
        g->acting = g->current;
        g->phase = TRADE_CONFIRM;
    } else {
        close_offer(g);
    }
}

static void confirm(State *g, int p, int a) {
    if (a != A_CANCEL) {
        int partner = a - A_CONFIRM;
        int give = g->offer_give, n_give = g->offer_n, get = g->offer_get;
        g->hands[p][give] -= n_give;
        g->hands[partner][give] += n_give;
        g->hands[partner][get]--;
        g->hands[p][get]++;
        g->hand_size[p] += 1 - n_give;
        g->hand_size[partner] += n_give - 1;
        g->domestic_trades++;
    }
    close_offer(g);
}

static void setup_settlement(State *g, int p, int v) {
    place_settlement(g, p, v);
    g->last_settlement = v;
    if (g->setup_step >= g->n) /* the second settlement yields its income */
        for (int i = 0; i < n_node_hexes[v]; i++) {
            int r = g->hex_resource[node_hexes[v][i]];
            if (r >= 0 && g->bank[r]) {
                gain(g, p, r, 1);
                g->produced[p][r]++;
            }
        }
    g->phase = SETUP_ROAD;
}

static void advance_setup(State *g) {
    g->setup_step++;
    int n = g->n, s = g->setup_step;
    if (s < 2 * n) {
        g->current = g->acting = s < n ? s : 2 * n - 1 - s;
        g->phase = SETUP_SETTLEMENT;
    } else {
        g->current = g->acting = 0;
        start_turn(g);
    }
}

/* Game.step for a legal action (the caller checks). */
static void apply(State *g, int a) {
    g->n_actions++;
    int p = g->acting;
    switch (g->phase) {
    case MAIN:
        main_step(g, p, a);
        check_win(g);
        break;
    case TRADE_RESPONSE:
        respond(g, p, a == A_ACCEPT);
        break;
    case PRE_ROLL:
        if (a == A_ROLL) {
            roll(g);
        } else {
            play_dev(g, p, a, PRE_ROLL);
            check_win(g);
        }
        break;
    case DISCARD:
        discard(g, p, a - A_DISCARD);
        break;
    case MOVE_ROBBER:
        move_robber(g, p, a - A_ROBBER);
        break;
    case STEAL:
        steal(g, p, a - A_STEAL);
        g->phase = g->after_robber;
        break;
    case ROAD_BUILDING: {
        build_road(g, p, a - A_ROAD);
        g->free_roads--;
        uint64_t lo, hi;
        road_spots(g, p, &lo, &hi);
        if (g->free_roads == 0 || !g->roads_left[p] || !(lo | hi))
            g->phase = g->after_road_building;
        check_win(g);
        break;
    }
    case SETUP_SETTLEMENT:
        setup_settlement(g, p, a - A_SETTLEMENT);
        break;
    case SETUP_ROAD:
        build_road(g, p, a - A_ROAD);
        advance_setup(g);
        break;
    case TRADE_CONFIRM:
        confirm(g, p, a);
        break;
    }
}

/* A new game, as Game.__init__ sets one up; the deck is shuffled with deck_rng as _shuffle
 * does (CPython's Fisher-Yates). */
static void new_game(State *g, MT *deck_rng) {
    memset(g->owner, -1, sizeof g->owner);
    memset(g->building, 0, sizeof g->building);
    memset(g->road_owner, -1, sizeof g->road_owner);
    g->site_free = (1ULL << N_NODES) - 1;
    for (int q = 0; q < MAX_SEATS; q++) {
        g->network[q] = 0;
        g->n_roads[q] = 0;
        g->hand_size[q] = 0;
        for (int r = 0; r < N_RES; r++) {
            g->hands[q][r] = 0;
            g->rates[q][r] = 4;
            g->produced[q][r] = 0;
        }
        for (int c = 0; c < N_DEV; c++) g->dev_hand[q][c] = g->dev_new[q][c] = g->dev_played[q][c] = 0;
        g->settlements_left[q] = 5;
        g->cities_left[q] = 4;
        g->roads_left[q] = 15;
        g->road_length[q] = g->vp_public[q] = 0;
        g->first_settlement_turn[q] = g->first_city_turn[q] = -1;
        g->to_discard[q] = 0;
    }
    for (int r = 0; r < N_RES; r++) g->bank[r] = CARDS_PER_RESOURCE;
    int k = 0;
    for (int card = 0; card < N_DEV; card++)
        for (int i = 0; i < DEV_DECK_COUNTS[card]; i++) g->dev_deck[k++] = (int8_t)card;
    g->deck_len = k;
    for (int i = k - 1; i > 0; i--) {
        int j = (int)mt_below(deck_rng, (uint64_t)i + 1);
        int8_t t = g->dev_deck[i];
        g->dev_deck[i] = g->dev_deck[j];
        g->dev_deck[j] = t;
    }
    g->longest_road = g->largest_army = -1;
    g->phase = SETUP_SETTLEMENT;
    g->current = g->acting = g->turns = 0;
    g->winner = -1;
    g->truncated = g->n_actions = 0;
    g->setup_step = 0;
    g->last_settlement = -1;
    g->dev_played_this_turn = g->offers_this_turn = 0;
    g->n_discarding = g->n_victims = g->free_roads = 0;
    g->after_robber = g->after_road_building = MAIN;
    g->has_offer = g->offer_give = g->offer_n = g->offer_get = 0;
    g->n_responders = g->n_accepted = 0;
    g->robber_moves = g->sevens = g->maritime_trades = g->domestic_trades = 0;
    g->dice = g->vp_rows = NULL;
    g->n_dice = g->cap_dice = g->n_vp_rows = g->cap_vp_rows = 0;
    g->n_faces = 0;
    g->failed = 0;
}

/* ---------------------------------------------------------------------------- Python type */

/* ---------------------------------------------------------------------------- agents
 *
 * The shipped agents the core can play itself, each the same decisions from the same stream as
 * its Python original: the random agent (agents/random_agent.py) and the greedy builder
 * (agents/greedy.py, whose docstrings give the reasons for each rule). The greedy agent's
 * caches are left out (they change its speed, not its choices): everything is worked out at
 * each decision, in the same order and the same floating-point arithmetic.
 */

enum { AGENT_RANDOM, AGENT_GREEDY };
enum { B_CITY, B_SETTLEMENT, B_DEV, B_ROAD }; /* greedy's build kinds, in priority order */
static const int *const BUILD_COSTS[4] = {CITY_COST, SETTLEMENT_COST, DEV_COST, ROAD_COST};
static const int MOST_NEEDED[N_RES] = {1, 1, 2, 1, 3};
static const double BASE_RESOURCE_WEIGHT[N_RES] = {1.0, 0.8, 1.0, 1.0, 1.0};
#define NO_TRADE_MARGIN 3

typedef struct { /* greedy.BoardInfo */
    int hex_pips[N_HEXES];
    double weight[N_RES];
    int node_pips[N_NODES][N_RES];
    double node_value[N_NODES];
    int n_new[N_NODES], new_r[N_NODES][N_RES];
    double new_bonus[N_NODES][N_RES];
    double fresh_value[N_NODES];
} BoardInfo;

typedef struct {
    int kind, seat;
    MT rng;
    int trade, offers, dev_cards, robber_leader; /* greedy's parameters */
    int offered[2], n_offered, offer_turn;       /* offers made this turn */
    int mark_turns, mark_trades;                 /* the last offer's turn and trade count */
    const BoardInfo *info;
    uint64_t game; /* the Core it last decided in: in another, its memory starts afresh */
    const int16_t *legal; /* during a decision: the legal actions (listed once, by decide()) */
    int n_legal;
} Agent;

/* Whether action a is legal now (Game.is_legal): asked of the state in the main phase, where
 * the decision lists nothing, else looked up in the decision's list. */
static int allowed(const State *g, const Agent *me, int a) {
    if (g->phase == MAIN) return main_legal(g, me->seat, a);
    for (int i = 0; i < me->n_legal; i++)
        if (me->legal[i] == a) return 1;
    return 0;
}

/* A greedy agent's first decision in a game: it forgets its offers (GreedyAgent._start). */
static void enter_game(Agent *a, uint64_t game) {
    if (a->game == game) return;
    a->game = game;
    a->n_offered = 0;
    a->offer_turn = a->mark_turns = a->mark_trades = -1;
}

static int pips_of(int number) { return number == 0 ? 0 : 6 - abs(7 - number); }

static void board_info(const State *g, BoardInfo *info) {
    int totals[N_RES] = {0};
    memset(info->node_pips, 0, sizeof info->node_pips);
    for (int h = 0; h < N_HEXES; h++) {
        info->hex_pips[h] = pips_of(g->hex_number[h]);
        int r = g->hex_resource[h];
        if (r < 0) continue;
        totals[r] += info->hex_pips[h];
        for (int c = 0; c < 6; c++) info->node_pips[hex_corners[h][c]][r] += info->hex_pips[h];
    }
    int sum = 0;
    for (int r = 0; r < N_RES; r++) sum += totals[r];
    double mean = (double)sum / N_RES;
    for (int r = 0; r < N_RES; r++) {
        /* (x ** 0.5 in Python is C's pow: the same double) */
        double x = pow(mean / (double)(totals[r] > 1 ? totals[r] : 1), 0.5);
        double clipped = x < 0.7 ? 0.7 : x;
        info->weight[r] = BASE_RESOURCE_WEIGHT[r] * (clipped > 1.5 ? 1.5 : clipped);
    }
    for (int v = 0; v < N_NODES; v++) {
        double value = 0.0;
        info->n_new[v] = 0;
        for (int r = 0; r < N_RES; r++)
            if (info->node_pips[v][r]) {
                value += info->weight[r] * info->node_pips[v][r];
                info->new_r[v][info->n_new[v]] = r;
                info->new_bonus[v][info->n_new[v]++] = 2.0 * info->weight[r];
            }
        info->node_value[v] = value;
        for (int i = 0; i < info->n_new[v]; i++) value += info->new_bonus[v][i];
        int code = g->harbor_at[v];
        if (code == 0) value += 1.0;
        else if (code > 0) value += 0.3 * (0 + info->node_pips[v][code - 1]);
        info->fresh_value[v] = value;
    }
}

/* -- shared estimates */

static void production(const State *g, const BoardInfo *info, int seat, int *prod) {
    for (int r = 0; r < N_RES; r++) prod[r] = 0;
    uint64_t net = g->network[seat];
    while (net) {
        int v = __builtin_ctzll(net);
        net &= net - 1;
        if (g->owner[v] != seat) continue;
        for (int r = 0; r < N_RES; r++) prod[r] += g->building[v] * info->node_pips[v][r];
    }
}

static double spot_value(const State *g, const BoardInfo *info, int v, const int *prod) {
    double value = info->node_value[v];
    for (int i = 0; i < info->n_new[v]; i++)
        if (!prod[info->new_r[v][i]]) value += info->new_bonus[v][i];
    int code = g->harbor_at[v];
    if (code == 0) value += 1.0;
    else if (code > 0) value += 0.3 * (prod[code - 1] + info->node_pips[v][code - 1]);
    return value;
}

static int has_spot(const State *g, int seat) { return (g->network[seat] & g->site_free) != 0; }

/* GreedyAgent._my_target: the build the seat works towards. */
static int target(const State *g, const Agent *me) {
    int p = me->seat, settlements_left = g->settlements_left[p];
    int city = g->cities_left[p] && settlements_left < 5;
    int second = -1;
    if (settlements_left) {
        if (has_spot(g, p)) second = B_SETTLEMENT;
        else if (g->roads_left[p]) second = B_ROAD;
    }
    int prod[N_RES];
    production(g, me->info, p, prod);
    double t[N_RES];
    for (int r = 0; r < N_RES; r++) t[r] = 36.0 / (prod[r] + 3);
    const double grain2[3] = {0.0, 36.0 / (prod[2] + 3), 72.0 / (prod[2] + 3)};
    const double ore3[4] = {0.0, 36.0 / (prod[4] + 3), 72.0 / (prod[4] + 3), 108.0 / (prod[4] + 3)};
    const int *hand = g->hands[p];
    int lumber = hand[0], wool = hand[1], grain = hand[2], brick = hand[3], ore = hand[4];
    int best = B_ROAD;
    double best_score = INFINITY;
    if (city) {
        double eta = 0.0;
        /* (a count below 0 only in a state set by hand, where the reference fails) */
        if (grain < 2) eta += grain2[2 - (grain < 0 ? 0 : grain)];
        if (ore < 3) eta += ore3[3 - (ore < 0 ? 0 : ore)];
        best = B_CITY;
        best_score = eta + 1.0;
    }
    if (second == B_SETTLEMENT) {
        double eta = 0.0;
        if (!lumber) eta += t[0];
        if (!wool) eta += t[1];
        if (!grain) eta += t[2];
        if (!brick) eta += t[3];
        double score = eta + 1.0;
        if (score < best_score) {
            best = B_SETTLEMENT;
            best_score = score;
        }
    } else if (second == B_ROAD) {
        double eta = 0.0;
        if (!lumber) eta += t[0];
        if (!brick) eta += t[3];
        double score = (eta + 1.0) * 1.2;
        if (score < best_score) {
            best = B_ROAD;
            best_score = score;
        }
    }
    if (me->dev_cards && g->deck_len) {
        double eta = 0.0;
        if (!wool) eta += t[1];
        if (!grain) eta += t[2];
        if (!ore) eta += t[4];
        if ((eta + 1.0) * 1.6 < best_score) best = B_DEV;
    }
    return best;
}

/* -- roads */

/* The longest trail of p's roads starting at start (the engine's rule). */
static int trail_from(const State *g, int p, int start) {
    uint8_t used[N_PATHS] = {0};
    int best = 0;
    trail(g, p, start, 0, used, N_PATHS + 1, &best);
    return best;
}

static int seat_road_at(const State *g, int p, int v) {
    for (int i = 0; i < n_node_paths[v]; i++)
        if (g->road_owner[node_paths[v][i]] == p) return 1;
    return 0;
}

static double road_target_value(const State *g, const Agent *me, int start, const int *prod) {
    int p = me->seat;
    const BoardInfo *info = me->info;
    const double one_away = 1.0 * 0.6, two_away = 1.0 * 0.6 * 0.6;
    double best = 0.0;
    if (g->site_free >> start & 1) best = spot_value(g, info, start, prod);
    int o = g->owner[start];
    if (o >= 0 && o != p) return best;
    for (int i = 0; i < n_node_paths[start]; i++) {
        int e1 = node_paths[start][i], w1 = other_end(e1, start);
        int r = g->road_owner[e1];
        if (r >= 0 && r != p) continue;
        if (g->site_free >> w1 & 1) {
            double value = spot_value(g, info, w1, prod) * one_away;
            if (value > best) best = value;
        } else {
            o = g->owner[w1];
            if (o >= 0 && o != p) continue;
        }
        for (int j = 0; j < n_node_paths[w1]; j++) {
            int e2 = node_paths[w1][j], w2 = other_end(e2, w1);
            if (w2 == start || !(g->site_free >> w2 & 1)) continue;
            r = g->road_owner[e2];
            if (r >= 0 && r != p) continue;
            double value = spot_value(g, info, w2, prod) * two_away;
            if (value > best) best = value;
        }
    }
    return best;
}

/* GreedyAgent._road_scores: the score of each road (an action) in roads. */
static void road_scores(const State *g, const Agent *me, const int16_t *roads, int n,
                        double *scores) {
    int prod[N_RES];
    production(g, me->info, me->seat, prod);
    uint64_t net = g->network[me->seat];
    for (int i = 0; i < n; i++) {
        int e = roads[i] - A_ROAD, x = path_nodes[e][0], y = path_nodes[e][1];
        if (net >> x & 1) {
            if (net >> y & 1) {
                scores[i] = 0.0;
                continue;
            }
            x = y;
        }
        scores[i] = road_target_value(g, me, x, prod);
    }
}

/* GreedyAgent._longest_gain: (length after, road) of the road that lengthens the longest road
 * most; the length goes to *length. */
static int longest_gain(State *g, const Agent *me, const int16_t *roads, int n, int *length) {
    int p = me->seat, current = g->road_length[p], best_len = -1, best = roads[0];
    int trails[N_NODES];
    for (int v = 0; v < N_NODES; v++) trails[v] = -1;
    for (int i = 0; i < n; i++) {
        int e = roads[i] - A_ROAD, x = path_nodes[e][0], y = path_nodes[e][1];
        int x_old = seat_road_at(g, p, x), y_old = seat_road_at(g, p, y), len;
        if (x_old && y_old) { /* Game.road_length_if_built */
            g->road_owner[e] = (int8_t)p;
            g->n_roads[p]++;
            len = longest_road(g, p);
            g->road_owner[e] = -1;
            g->n_roads[p]--;
        } else if (best_len > current) {
            continue;
        } else {
            len = 1;
            if (x_old || y_old) {
                int inner = x_old ? x : y, o = g->owner[inner];
                if (o < 0 || o == p) {
                    if (trails[inner] < 0) trails[inner] = trail_from(g, p, inner);
                    len += trails[inner];
                }
            }
            if (current > len) len = current;
        }
        if (len > best_len) {
            best_len = len;
            best = roads[i];
        }
    }
    *length = best_len;
    return best;
}

static int wants_longest_road(const State *g, int p) {
    if (!g->roads_left[p]) return 0;
    int mine = g->road_length[p], others = 0;
    for (int q = 0; q < g->n; q++)
        if (q != p && g->road_length[q] > others) others = g->road_length[q];
    if (g->longest_road == p) return others >= mine - 1;
    int need = others + 1 > LONGEST_ROAD_MIN ? others + 1 : LONGEST_ROAD_MIN;
    return mine >= need - 2;
}

static int best_road(State *g, Agent *me, const int16_t *legal, int n_legal) {
    const int16_t *roads = legal; /* the road actions: a run of the sorted list */
    int n = 0;
    while (roads < legal + n_legal && *roads < A_ROAD) roads++;
    while (roads + n < legal + n_legal && roads[n] < A_ROBBER) n++;
    double scores[N_PATHS];
    road_scores(g, me, roads, n, scores);
    double best_score = -INFINITY;
    int best = -1;
    for (int i = 0; i < n; i++) {
        double score = scores[i] + 1e-6 * mt_random(&me->rng);
        if (score > best_score || (score == best_score && roads[i] > best)) {
            best_score = score;
            best = roads[i];
        }
    }
    if (best_score < 0.5 && g->phase != SETUP_ROAD) {
        int length;
        return longest_gain(g, me, roads, n, &length);
    }
    return best;
}

/* -- setup */

static int greedy_setup_settlement(const State *g, Agent *me, const int16_t *legal, int n) {
    int prod[N_RES];
    production(g, me->info, me->seat, prod);
    int fresh = !(prod[0] || prod[1] || prod[2] || prod[3] || prod[4]);
    int best = legal[0];
    double best_value = -INFINITY;
    for (int i = 0; i < n; i++) {
        int v = legal[i] - A_SETTLEMENT;
        double value = fresh ? me->info->fresh_value[v] : spot_value(g, me->info, v, prod);
        value += 1e-6 * mt_random(&me->rng);
        if (value > best_value) {
            best = legal[i];
            best_value = value;
        }
    }
    return best;
}

/* -- turn start */

static int robber_on_me(const State *g, const Agent *me) {
    int h = g->robber;
    if (!me->info->hex_pips[h]) return 0;
    for (int c = 0; c < 6; c++)
        if (g->owner[hex_corners[h][c]] == me->seat) return 1;
    return 0;
}

static int knight_takes_army(const State *g, int p) {
    int mine = g->dev_played[p][KNIGHT] + 1, others = 0;
    for (int q = 0; q < g->n; q++)
        if (q != p && g->dev_played[q][KNIGHT] > others) others = g->dev_played[q][KNIGHT];
    if (g->largest_army == p) return others >= mine - 1;
    return mine >= LARGEST_ARMY_MIN && mine > others;
}

/* -- main phase */

static int settlement_wanted(const State *g, int p) {
    return g->settlements_left[p] && !has_spot(g, p);
}

static int best_city(const State *g, const Agent *me) {
    int p = me->seat, best = -1;
    double best_value = -INFINITY;
    uint64_t net = g->network[p];
    while (net) {
        int v = __builtin_ctzll(net);
        net &= net - 1;
        if (g->owner[v] == p && g->building[v] == 1 && me->info->node_value[v] > best_value) {
            best = A_CITY + v;
            best_value = me->info->node_value[v];
        }
    }
    return best;
}

static int best_settlement(const State *g, const Agent *me) {
    int p = me->seat, best = -1, prod[N_RES];
    production(g, me->info, p, prod);
    double best_value = -INFINITY;
    uint64_t spots = g->network[p] & g->site_free;
    while (spots) {
        int v = __builtin_ctzll(spots);
        spots &= spots - 1;
        double value = spot_value(g, me->info, v, prod);
        if (value > best_value) {
            best = A_SETTLEMENT + v;
            best_value = value;
        }
    }
    return best;
}

static int dev_ok(const State *g, const Agent *me) {
    int kind = target(g, me);
    if (kind != B_CITY && kind != B_SETTLEMENT) return 1;
    const int *hand = g->hands[me->seat], *cost = BUILD_COSTS[kind];
    int before = 0, after = 0;
    for (int r = 0; r < N_RES; r++) {
        int h = hand[r], c = cost[r];
        if (c > h) before += c - h;
        h -= DEV_COST[r];
        if (c > h) after += c - h;
    }
    return !(after > before && before <= 2);
}

static int paid_road(State *g, const Agent *me) {
    int p = me->seat, wanted = settlement_wanted(g, p);
    if (!wanted && !wants_longest_road(g, p)) return -1;
    uint64_t lo, hi;
    road_spots(g, p, &lo, &hi);
    int16_t roads[N_PATHS];
    int n = emit_roads(lo, hi, roads);
    if (!n) return -1;
    if (wanted) {
        double scores[N_PATHS], best_score = 0.0;
        int best = -1;
        road_scores(g, me, roads, n, scores);
        for (int i = 0; i < n; i++)
            if (scores[i] > best_score || (scores[i] == best_score && roads[i] > best)) {
                best_score = scores[i];
                best = roads[i];
            }
        if (best_score > 0) return best;
        if (!wants_longest_road(g, p)) return -1;
    }
    int length, best = longest_gain(g, me, roads, n, &length);
    return length > g->road_length[p] ? best : -1;
}

static int maritime(const State *g, const Agent *me) {
    int p = me->seat;
    const int *hand = g->hands[p], *rates = g->rates[p];
    int kinds[4], n_kinds = 0;
    if (g->cities_left[p] && g->settlements_left[p] < 5) kinds[n_kinds++] = B_CITY;
    if (g->settlements_left[p] && has_spot(g, p)) kinds[n_kinds++] = B_SETTLEMENT;
    if (g->hand_size[p] > g->discard_limit) {
        if (me->dev_cards && g->deck_len) kinds[n_kinds++] = B_DEV;
        if (g->roads_left[p] && (settlement_wanted(g, p) || wants_longest_road(g, p)))
            kinds[n_kinds++] = B_ROAD;
    }
    for (int k = 0; k < n_kinds; k++) {
        const int *cost = BUILD_COSTS[kinds[k]];
        int need = 0, spare = 0, get = -1, get_short = 0, feasible = 1;
        for (int r = 0; r < N_RES; r++) {
            int short_ = cost[r] - hand[r];
            if (short_ > 0) {
                if (g->bank[r] < short_) {
                    feasible = 0;
                    break;
                }
                need += short_;
                if (short_ > get_short) {
                    get = r;
                    get_short = short_;
                }
            } else if (short_ < 0) {
                spare += -short_ / rates[r];
            }
        }
        if (!feasible || !need || spare < need) continue;
        int give = -1, give_rate = 0, give_spare = 0;
        for (int r = 0; r < N_RES; r++) {
            int extra = hand[r] - cost[r];
            if (extra >= rates[r] &&
                (give < 0 || rates[r] < give_rate || (rates[r] == give_rate && extra > give_spare))) {
                give = r;
                give_rate = rates[r];
                give_spare = extra;
            }
        }
        int a = A_MARITIME + give * 4 + (get < give ? get : get - 1);
        if (allowed(g, me, a)) return a;
    }
    return -1;
}

static int make_offer(const State *g, Agent *me) {
    if (g->turns != me->offer_turn) {
        me->offer_turn = g->turns;
        me->n_offered = 0;
    }
    if (me->n_offered >= 2 || g->offers_per_turn - g->offers_this_turn <= 0) return -1;
    int p = me->seat;
    if (g->vp_public[p] >= g->vp_to_win - NO_TRADE_MARGIN) return -1;
    const int *hand = g->hands[p], *cost = BUILD_COSTS[target(g, me)];
    int get = -1;
    for (int r = 0; r < N_RES; r++) {
        int short_ = cost[r] - hand[r];
        if (short_ > 0) {
            if (short_ > 1 || get >= 0) return -1;
            get = r;
        }
    }
    if (get < 0) return -1;
    const double *weight = me->info->weight;
    int give = -1, give_extra = 0;
    for (int r = 0; r < N_RES; r++) {
        int extra = hand[r] - cost[r];
        if (extra > 0 && (give < 0 || extra > give_extra ||
                          (extra == give_extra && weight[r] < weight[give]))) {
            give = r;
            give_extra = extra;
        }
    }
    if (give < 0) return -1;
    int a = A_OFFER + give * 4 + (get < give ? get : get - 1);
    for (int i = 0; i < me->n_offered; i++)
        if (me->offered[i] == a) return -1;
    me->offered[me->n_offered++] = a;
    return a;
}

static int year_of_plenty(const State *g, const Agent *me) {
    const int *hand = g->hands[me->seat], *cost = BUILD_COSTS[target(g, me)];
    int lacking[8], n = 0;
    for (int r = 0; r < N_RES; r++)
        for (int k = hand[r]; k < cost[r] && n < 8; k++) lacking[n++] = r;
    if (!n) return -1;
    if (n == 1) { /* the second card: the resource produced least (weighted) */
        int prod[N_RES], least = 0;
        production(g, me->info, me->seat, prod);
        for (int r = 1; r < N_RES; r++)
            if (prod[r] < prod[least] ||
                (prod[r] == prod[least] && -me->info->weight[r] < -me->info->weight[least]))
                least = r;
        lacking[n++] = least;
    }
    int r1 = lacking[0] < lacking[1] ? lacking[0] : lacking[1];
    int r2 = lacking[0] < lacking[1] ? lacking[1] : lacking[0];
    int i = 0;
    for (int a = 0; a < 15; a++)
        if (yop_r1[a] == r1 && yop_r2[a] == r2) i = a;
    return allowed(g, me, A_YOP + i) ? A_YOP + i : -1;
}

static int monopoly(const State *g, const Agent *me) {
    int p = me->seat, best = -1;
    const int *hand = g->hands[p], *cost = BUILD_COSTS[target(g, me)];
    double best_gain = 2.5;
    for (int r = 0; r < N_RES; r++) {
        if (hand[r] >= cost[r] && g->rates[p][r] != 2) continue;
        double gain = 0.0;
        for (int q = 0; q < g->n; q++) {
            if (q == p || !g->hand_size[q]) continue;
            int prod[N_RES];
            production(g, me->info, q, prod);
            int total = prod[0] + prod[1] + prod[2] + prod[3] + prod[4];
            if (total) gain += (double)(g->hand_size[q] * prod[r]) / total;
        }
        if (gain > best_gain) {
            best = r;
            best_gain = gain;
        }
    }
    if (best < 0) return -1;
    return allowed(g, me, A_MONOPOLY + best) ? A_MONOPOLY + best : -1;
}

static int dev_play(const State *g, Agent *me) {
    int p = me->seat;
    const int *dev = g->dev_hand[p], *fresh = g->dev_new[p];
    if (!(dev[KNIGHT] || dev[ROAD_BUILDING_CARD] || dev[YEAR_OF_PLENTY] || dev[MONOPOLY]) ||
        g->dev_played_this_turn)
        return -1;
    if (dev[KNIGHT] > fresh[KNIGHT] && (robber_on_me(g, me) || knight_takes_army(g, p)) &&
        allowed(g, me, A_KNIGHT))
        return A_KNIGHT;
    if (dev[ROAD_BUILDING_CARD] > fresh[ROAD_BUILDING_CARD] && g->roads_left[p] >= 1 &&
        (settlement_wanted(g, p) || wants_longest_road(g, p)) && allowed(g, me, A_ROAD_BUILDING))
        return A_ROAD_BUILDING;
    if (dev[YEAR_OF_PLENTY] > fresh[YEAR_OF_PLENTY]) {
        int a = year_of_plenty(g, me);
        if (a >= 0) return a;
    }
    if (dev[MONOPOLY] > fresh[MONOPOLY]) {
        int a = monopoly(g, me);
        if (a >= 0) return a;
    }
    return -1;
}

static int greedy_main(State *g, Agent *me) {
    if (me->mark_turns == g->turns && me->mark_trades == g->domestic_trades) return A_END_TURN;
    int p = me->seat;
    const int *hand = g->hands[p];
    int lumber = hand[0], wool = hand[1], grain = hand[2], brick = hand[3], ore = hand[4];
    const int *dev = g->dev_hand[p];
    if (me->dev_cards &&
        (dev[KNIGHT] || dev[ROAD_BUILDING_CARD] || dev[YEAR_OF_PLENTY] || dev[MONOPOLY])) {
        int play = dev_play(g, me);
        if (play >= 0) return play;
    }
    if (grain >= 2 && ore >= 3 && g->cities_left[p]) {
        int city = best_city(g, me);
        if (city >= 0 && allowed(g, me, city)) return city;
    }
    if (lumber && wool && grain && brick && g->settlements_left[p]) {
        int spot = best_settlement(g, me);
        if (spot >= 0 && allowed(g, me, spot)) return spot;
    }
    if (me->dev_cards && wool && grain && ore && allowed(g, me, A_BUY_DEV) && dev_ok(g, me))
        return A_BUY_DEV;
    if (lumber && brick && g->roads_left[p]) {
        int road = paid_road(g, me);
        if (road >= 0 && allowed(g, me, road)) return road;
    }
    if (me->trade) {
        const int *rates = g->rates[p];
        if (lumber >= rates[0] || wool >= rates[1] || grain >= rates[2] || brick >= rates[3] ||
            ore >= rates[4]) {
            int a = maritime(g, me);
            if (a >= 0) return a;
        }
    }
    if (me->offers) {
        int a = make_offer(g, me);
        if (a >= 0) {
            me->mark_turns = g->turns;
            me->mark_trades = g->domestic_trades;
            return a;
        }
    }
    return A_END_TURN;
}

/* -- the 7, the robber, domestic trade */

static int greedy_discard(const State *g, const Agent *me, const int16_t *legal, int n) {
    const int *hand = g->hands[me->seat], *cost = BUILD_COSTS[target(g, me)];
    int best = legal[0], best_extra = -99;
    double best_weight = 0.0;
    for (int i = 0; i < n; i++) {
        int r = legal[i] - A_DISCARD, extra = hand[r] - cost[r];
        double w = me->info->weight[r];
        if (extra > best_extra || (extra == best_extra && w < best_weight)) {
            best = legal[i];
            best_extra = extra;
            best_weight = w;
        }
    }
    return best;
}

static int greedy_robber(const State *g, Agent *me, const int16_t *legal, int n) {
    int p = me->seat, top = -1;
    for (int q = 0; q < g->n; q++)
        if (q != p && g->vp_public[q] > top) top = g->vp_public[q];
    double weight[MAX_SEATS];
    for (int q = 0; q < g->n; q++)
        weight[q] = me->robber_leader && g->vp_public[q] == top ? 3.0 : 1.0;
    int best = legal[0];
    double best_score = -INFINITY;
    for (int i = 0; i < n; i++) {
        int h = legal[i] - A_ROBBER, mine = 0, rob = 0, any = 0, pip = me->info->hex_pips[h];
        double score = 0.0;
        for (int c = 0; c < 6; c++) {
            int v = hex_corners[h][c], q = g->owner[v];
            if (q < 0) continue;
            any = 1;
            if (q == p) {
                mine = 1;
            } else {
                score += g->building[v] * weight[q] * pip;
                if (g->hand_size[q]) rob = 1;
            }
        }
        if (any) {
            if (mine) score -= 1000.0;
            if (rob) score += 2.0;
        }
        double s = score + 1e-6 * mt_random(&me->rng);
        if (s > best_score) {
            best = legal[i];
            best_score = s;
        }
    }
    return best;
}

static int greedy_steal(const State *g, const int16_t *legal, int n) {
    int best = legal[0], best_vp = -1, best_size = -1;
    for (int i = 0; i < n; i++) {
        int q = legal[i] - A_STEAL;
        if (g->vp_public[q] > best_vp || (g->vp_public[q] == best_vp && g->hand_size[q] > best_size)) {
            best = legal[i];
            best_vp = g->vp_public[q];
            best_size = g->hand_size[q];
        }
    }
    return best;
}

static int greedy_respond(const State *g, const Agent *me, const int16_t *legal) {
    if (!me->offers || legal[0] != A_ACCEPT || !g->has_offer) return A_DECLINE;
    int give = g->offer_give, get = g->offer_get;
    const int *hand = g->hands[me->seat];
    if (hand[give] >= MOST_NEEDED[give]) return A_DECLINE;
    if (g->vp_public[g->current] >= g->vp_to_win - NO_TRADE_MARGIN) return A_DECLINE;
    const int *cost = BUILD_COSTS[target(g, me)];
    return hand[give] < cost[give] && hand[get] > cost[get] ? A_ACCEPT : A_DECLINE;
}

static int greedy_confirm(const State *g, const int16_t *legal, int n) {
    int best = A_CANCEL, best_vp = 99;
    for (int i = 0; i < n; i++)
        if (legal[i] != A_CANCEL && g->vp_public[legal[i] - A_CONFIRM] < best_vp) {
            best = legal[i];
            best_vp = g->vp_public[legal[i] - A_CONFIRM];
        }
    return best;
}

/* GreedyAgent.act. */
static int greedy_act(State *g, Agent *me) {
    if (g->phase == MAIN) return greedy_main(g, me);
    const int16_t *legal = me->legal;
    int n = me->n_legal;
    if (n == 1) return legal[0];
    switch (g->phase) {
    case TRADE_RESPONSE:
        return greedy_respond(g, me, legal);
    case PRE_ROLL:
        return legal[1] == A_KNIGHT && (robber_on_me(g, me) || knight_takes_army(g, me->seat))
                   ? A_KNIGHT
                   : A_ROLL;
    case DISCARD:
        return greedy_discard(g, me, legal, n);
    case MOVE_ROBBER:
        return greedy_robber(g, me, legal, n);
    case STEAL:
        return greedy_steal(g, legal, n);
    case ROAD_BUILDING:
    case SETUP_ROAD:
        return best_road(g, me, legal, n);
    case SETUP_SETTLEMENT:
        return greedy_setup_settlement(g, me, legal, n);
    case TRADE_CONFIRM:
        return greedy_confirm(g, legal, n);
    }
    return legal[0];
}

/* ---------------------------------------------------------------------------- Core: Python type */

static int read_ints(PyObject *seq_obj, const char *name, int length, int low, int high,
                     int *out) {
    PyObject *seq = PySequence_Fast(seq_obj, name);
    if (seq == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != length) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d integers, got %zd", name, length,
                     PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return -1;
    }
    for (int i = 0; i < length; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (v < low || v > high) {
            PyErr_Format(PyExc_ValueError, "%s[%d]: expected %d..%d, got %ld", name, i, low,
                         high, v);
            Py_DECREF(seq);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(seq);
    return 0;
}

typedef struct {
    PyObject_HEAD State g;
    int ready;
    uint64_t serial; /* which game this is, for the agents' memory of their game */
} Core;

static uint64_t next_serial = 1;

static PyTypeObject CoreType;

static void Core_dealloc(Core *self) {
    PyMem_Free(self->g.dice);
    PyMem_Free(self->g.vp_rows);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Core_init(Core *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"n_players", "hex_resource", "hex_number", "harbor_at", "robber",
                             "options", "dice_key", "steal_key", "deck_key", NULL};
    int n, robber;
    PyObject *resource, *number, *harbor, *options, *dice_key, *steal_key, *deck_key;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOOOiOOOO", kwlist, &n, &resource, &number,
                                     &harbor, &robber, &options, &dice_key, &steal_key,
                                     &deck_key))
        return -1;
    if (!topology_loaded) {
        PyErr_SetString(PyExc_RuntimeError, "Core: call set_topology() first");
        return -1;
    }
    if (self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "Core: already set up");
        return -1;
    }
    if (n < 2 || n > MAX_SEATS) {
        PyErr_Format(PyExc_ValueError, "n_players must be 2..%d, got %d", MAX_SEATS, n);
        return -1;
    }
    if (robber < 0 || robber >= N_HEXES) {
        PyErr_Format(PyExc_ValueError, "robber: expected a hex 0..%d, got %d", N_HEXES - 1, robber);
        return -1;
    }
    int res[N_HEXES], num[N_HEXES], har[N_NODES], opt[6];
    if (read_ints(resource, "hex_resource", N_HEXES, -1, N_RES - 1, res) < 0 ||
        read_ints(number, "hex_number", N_HEXES, 0, 12, num) < 0 ||
        read_ints(harbor, "harbor_at", N_NODES, -1, N_RES, har) < 0 ||
        read_ints(options, "options", 6, -1, 1 << 30, opt) < 0)
        return -1;
    State *g = &self->g;
    MT deck_rng;
    if (seed_from_key(dice_key, &g->dice_rng) < 0 || seed_from_key(steal_key, &g->steal_rng) < 0 ||
        seed_from_key(deck_key, &deck_rng) < 0)
        return -1;
    g->n = n;
    g->vp_to_win = opt[0];
    g->discard_limit = opt[1];
    g->friendly_robber = opt[2] != 0;
    g->turn_limit = opt[3];
    g->offers_per_turn = opt[4];
    g->cut_holder_keeps_ties = opt[5] != 0;
    memset(g->n_number_hexes, 0, sizeof g->n_number_hexes);
    for (int h = 0; h < N_HEXES; h++) {
        g->hex_resource[h] = (int8_t)res[h];
        g->hex_number[h] = (int8_t)num[h];
        if (num[h] && res[h] >= 0) g->number_hexes[num[h]][g->n_number_hexes[num[h]]++] = (int8_t)h;
    }
    for (int v = 0; v < N_NODES; v++) g->harbor_at[v] = (int8_t)har[v];
    g->robber = robber;
    new_game(g, &deck_rng);
    self->ready = 1;
    self->serial = next_serial++;
    return 0;
}

static int ensure_ready(Core *self) {
    if (!self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "Core: not set up (__init__ was not called)");
        return -1;
    }
    if (self->g.failed) {
        PyErr_SetString(PyExc_MemoryError, "Core: out of memory for the game's traces");
        return -1;
    }
    return 0;
}

static PyObject *seat_value(int v) {
    if (v < 0) Py_RETURN_NONE;
    return PyLong_FromLong(v);
}

static PyObject *int_list(const int *values, int n) {
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *item = PyLong_FromLong(values[i]);
        if (item == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, item);
    }
    return out;
}

static PyObject *action_list(const int16_t *actions, int n) {
    int wide[N_ACTIONS];
    for (int i = 0; i < n; i++) wide[i] = actions[i];
    return int_list(wide, n);
}

static PyObject *Core_legal_actions(Core *self, PyObject *Py_UNUSED(ignored)) {
    if (ensure_ready(self) < 0) return NULL;
    int16_t legal[N_ACTIONS];
    return action_list(legal, legal_actions(&self->g, legal));
}

/* An action index from a Python integer into *action (-1 for one too large to be any);
 * -1 with a TypeError set for anything else. */
static int action_of(PyObject *arg, long *action) {
    *action = PyLong_AsLong(arg);
    if (*action == -1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
        PyErr_Clear(); /* too large to be an action: illegal */
    }
    return 0;
}

static PyObject *Core_is_legal(Core *self, PyObject *arg) {
    long a;
    if (ensure_ready(self) < 0 || action_of(arg, &a) < 0) return NULL;
    return PyBool_FromLong(a >= 0 && a < N_ACTIONS && is_legal(&self->g, (int)a));
}

static PyObject *Core_step(Core *self, PyObject *arg) {
    long a;
    if (ensure_ready(self) < 0 || action_of(arg, &a) < 0) return NULL;
    if (a < 0 || a >= N_ACTIONS || !is_legal(&self->g, (int)a)) Py_RETURN_FALSE;
    apply(&self->g, (int)a);
    if (self->g.failed) return PyErr_NoMemory();
    Py_RETURN_TRUE;
}

static PyObject *Core_forced_action(Core *self, PyObject *Py_UNUSED(ignored)) {
    if (ensure_ready(self) < 0) return NULL;
    return PyLong_FromLong(forced_action(&self->g));
}

static int copy_trace(int8_t **buffer, int *capacity, int count, int width) {
    int8_t *source = *buffer;
    *buffer = NULL;
    *capacity = 0;
    if (count == 0) return 0;
    *buffer = PyMem_Malloc((size_t)count * (size_t)width);
    if (*buffer == NULL) return -1;
    memcpy(*buffer, source, (size_t)count * (size_t)width);
    *capacity = count;
    return 0;
}

static PyObject *Core_clone(Core *self, PyObject *Py_UNUSED(ignored)) {
    if (ensure_ready(self) < 0) return NULL;
    Core *copy = PyObject_New(Core, &CoreType);
    if (copy == NULL) return NULL;
    copy->g = self->g; /* then the traces, which are the only memory a game owns */
    copy->ready = 1;
    copy->serial = next_serial++;
    State *g = &copy->g;
    int dice_bad = copy_trace(&g->dice, &g->cap_dice, g->n_dice, 1);
    int rows_bad = copy_trace(&g->vp_rows, &g->cap_vp_rows, g->n_vp_rows, g->n);
    if (dice_bad || rows_bad) {
        Py_DECREF(copy);
        return PyErr_NoMemory();
    }
    return (PyObject *)copy;
}

static PyObject *int_tuple(const int *values, int n, int none_below_zero) {
    PyObject *out = PyTuple_New(n);
    if (out == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *item;
        if (none_below_zero && values[i] < 0) {
            item = Py_None;
            Py_INCREF(item);
        } else {
            item = PyLong_FromLong(values[i]);
        }
        if (item == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, item);
    }
    return out;
}

/* The fields of play.game_record that come from the game, in GameRecord's order: winner,
 * truncated, turns, n_actions, final_vp, vp_by_turn, produced, dice, robber_moves, sevens,
 * maritime_trades, domestic_trades, knights_played, first_settlement_turn, first_city_turn,
 * longest_road, largest_army. */
static PyObject *Core_record(Core *self, PyObject *Py_UNUSED(ignored)) {
    if (ensure_ready(self) < 0) return NULL;
    const State *g = &self->g;
    int n = g->n, vp[MAX_SEATS], knights[MAX_SEATS], row[MAX_SEATS];
    for (int q = 0; q < n; q++) {
        vp[q] = victory_points(g, q);
        knights[q] = g->dev_played[q][KNIGHT];
    }
    PyObject *rows = PyTuple_New(g->n_vp_rows), *produced = PyTuple_New(n),
             *dice = PyTuple_New(g->n_dice);
    if (rows == NULL || produced == NULL || dice == NULL) goto fail;
    for (int t = 0; t < g->n_vp_rows; t++) {
        for (int q = 0; q < n; q++) row[q] = g->vp_rows[(size_t)t * (size_t)n + (size_t)q];
        PyObject *item = int_tuple(row, n, 0);
        if (item == NULL) goto fail;
        PyTuple_SET_ITEM(rows, t, item);
    }
    for (int q = 0; q < n; q++) {
        PyObject *item = int_tuple(g->produced[q], N_RES, 0);
        if (item == NULL) goto fail;
        PyTuple_SET_ITEM(produced, q, item);
    }
    for (int t = 0; t < g->n_dice; t++) {
        PyObject *item = PyLong_FromLong(g->dice[t]);
        if (item == NULL) goto fail;
        PyTuple_SET_ITEM(dice, t, item);
    }
    return Py_BuildValue("(NNiiNNNNiiiiNNNNN)", seat_value(g->winner),
                         PyBool_FromLong(g->truncated), g->turns, g->n_actions,
                         int_tuple(vp, n, 0), rows, produced, dice, g->robber_moves, g->sevens,
                         g->maritime_trades, g->domestic_trades, int_tuple(knights, n, 0),
                         int_tuple(g->first_settlement_turn, n, 1),
                         int_tuple(g->first_city_turn, n, 1), seat_value(g->longest_road),
                         seat_value(g->largest_army));
fail:
    Py_XDECREF(rows);
    Py_XDECREF(produced);
    Py_XDECREF(dice);
    return NULL;
}

/* Agents: the core's agents for one board and seat count, with their random streams and
 * memory, kept across games: a search agent's play-out agents (Core.agents()). */
typedef struct {
    PyObject_HEAD int n;
    Agent agents[MAX_SEATS];
    BoardInfo info;
    int8_t hex_resource[N_HEXES], hex_number[N_HEXES], harbor_at[N_NODES]; /* its board */
} Agents;

static PyTypeObject AgentsType;

static void Agents_dealloc(Agents *self) { Py_TYPE(self)->tp_free((PyObject *)self); }

static PyTypeObject AgentsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ludolab.envs.catan._core.Agents",
    .tp_doc = "The core's agents of one table (Core.agents(seats)), kept across its games.",
    .tp_basicsize = sizeof(Agents),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)Agents_dealloc,
};

/* Read seats (one spec per seat; see Core.play) into agents. */
static int read_seats(PyObject *seats, int n, Agent *agents, const BoardInfo *info) {
    PyObject *seq = PySequence_Fast(seats, "seats: expected one agent per seat");
    if (seq == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != n) {
        PyErr_Format(PyExc_ValueError, "seats: expected %d (one per seat), got %zd", n,
                     PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return -1;
    }
    for (int q = 0; q < n; q++) {
        PyObject *spec = PySequence_Fast_GET_ITEM(seq, q), *key = NULL;
        const char *kind = NULL;
        Agent *a = &agents[q];
        memset(a, 0, sizeof *a);
        a->seat = q;
        a->info = info;
        a->offer_turn = a->mark_turns = a->mark_trades = -1;
        int ok = PyTuple_Check(spec) && PyTuple_GET_SIZE(spec) >= 2;
        if (ok) {
            PyObject *name = PyTuple_GET_ITEM(spec, 0);
            kind = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
            key = PyTuple_GET_ITEM(spec, 1);
            if (kind && strcmp(kind, "random") == 0 && PyTuple_GET_SIZE(spec) == 2) {
                a->kind = AGENT_RANDOM;
            } else if (kind && strcmp(kind, "greedy") == 0 &&
                       PyArg_ParseTuple(spec, "sOpppp", &kind, &key, &a->trade, &a->offers,
                                        &a->dev_cards, &a->robber_leader)) {
                a->kind = AGENT_GREEDY;
            } else {
                ok = 0;
            }
        }
        if (!ok) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "seats[%d]: expected (\"random\", key) or (\"greedy\", "
                         "key, trade, offers, dev_cards, robber_leader), got %R", q, spec);
            Py_DECREF(seq);
            return -1;
        }
        if (seed_from_key(key, &a->rng) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

/* core.agents(seats): an Agents of this core's table. */
static PyObject *Core_agents(Core *self, PyObject *seats) {
    if (ensure_ready(self) < 0) return NULL;
    Agents *out = PyObject_New(Agents, &AgentsType);
    if (out == NULL) return NULL;
    const State *g = &self->g;
    out->n = g->n;
    board_info(g, &out->info);
    memcpy(out->hex_resource, g->hex_resource, sizeof g->hex_resource);
    memcpy(out->hex_number, g->hex_number, sizeof g->hex_number);
    memcpy(out->harbor_at, g->harbor_at, sizeof g->harbor_at);
    if (read_seats(seats, g->n, out->agents, &out->info) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return (PyObject *)out;
}

static int same_table(const Agents *agents, const State *g) {
    if (agents->n == g->n && memcmp(agents->hex_resource, g->hex_resource, sizeof g->hex_resource) == 0 &&
        memcmp(agents->hex_number, g->hex_number, sizeof g->hex_number) == 0 &&
        memcmp(agents->harbor_at, g->harbor_at, sizeof g->harbor_at) == 0)
        return 1;
    PyErr_SetString(PyExc_ValueError, "agents: made for another board or seat count");
    return 0;
}

/* A guard against a bug: the greedy agent chose an illegal action. -1, with the error set. */
static int illegal_choice(const State *g, int a) {
    PyErr_Format(PyExc_RuntimeError, "the core's greedy agent chose illegal action %d "
                 "(seat %d, phase %d)", a, g->acting, g->phase);
    return -1;
}

/* The decision of the acting seat's agent now (not a forced action), or -1 with an error. */
static int decide(State *g, Agent *agent, uint64_t game, int16_t *legal) {
    if (agent->kind == AGENT_GREEDY && g->phase == MAIN) { /* (it asks main_legal: no list) */
        enter_game(agent, game);
        agent->legal = NULL;
        agent->n_legal = 0;
        int a = greedy_main(g, agent);
        if (!main_legal(g, agent->seat, a)) return illegal_choice(g, a);
        return a;
    }
    int n_legal = legal_actions(g, legal); /* once: the greedy agent asks about it often */
    if (n_legal == 0) { /* (only from a state set by hand: the reference's agent fails) */
        PyErr_Format(PyExc_RuntimeError, "no legal action for seat %d in phase %d", g->acting,
                     g->phase);
        return -1;
    }
    if (agent->kind == AGENT_RANDOM) return legal[(int)(mt_random(&agent->rng) * n_legal)];
    enter_game(agent, game);
    agent->legal = legal;
    agent->n_legal = n_legal;
    int a = greedy_act(g, agent);
    if (!allowed(g, agent, a)) return illegal_choice(g, a);
    return a;
}

/* The agents play game `serial` on from `g` to the end (or until `until` turns have been
 * played, with until >= 0), forced actions stepped without asking; each action appended to
 * `actions` when it is a list. 0, or -1 with an error. */
static int play_on(State *g, Agent *agents, uint64_t serial, int until, PyObject *actions) {
    int16_t legal[N_ACTIONS];
    while (g->phase != GAME_OVER && !g->failed && (until < 0 || g->turns < until)) {
        int a = forced_action(g);
        if (a < 0 && (a = decide(g, &agents[g->acting], serial, legal)) < 0) return -1;
        if (actions) {
            PyObject *item = PyLong_FromLong(a);
            if (item == NULL || PyList_Append(actions, item) < 0) {
                Py_XDECREF(item);
                return -1;
            }
            Py_DECREF(item);
        }
        apply(g, a);
    }
    return 0;
}

/* play(seats, log=False, until=-1): the agents of `seats` play to the end (or, with until >= 0,
 * until `until` turns have been played: a search's cut-off), one per seat: ("random", key)
 * or ("greedy", key, trade, offers, dev_cards, robber_leader), key the words of the stream the
 * agent's reset() would seed; or an Agents (core.agents(seats)), whose streams and memory
 * go on from game to game. Forced actions are stepped without asking, as play.play_out does.
 * With log=True, returns every action taken, in order. */
static PyObject *Core_play(Core *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"seats", "log", "until", NULL};
    PyObject *seats;
    int log = 0, until = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|pi", kwlist, &seats, &log, &until))
        return NULL;
    if (ensure_ready(self) < 0) return NULL;
    State *g = &self->g;
    Agents *kept = NULL, *fresh = NULL;
    if (Py_IS_TYPE(seats, &AgentsType)) {
        kept = (Agents *)seats;
        if (!same_table(kept, g)) return NULL;
    } else {
        fresh = (Agents *)Core_agents(self, seats);
        if (fresh == NULL) return NULL;
    }
    Agent *agents = (kept ? kept : fresh)->agents;
    PyObject *actions = log ? PyList_New(0) : NULL;
    if (log && actions == NULL) goto fail;
    if (play_on(g, agents, self->serial, until, actions) < 0) goto fail;
    Py_XDECREF(fresh);
    if (g->failed) {
        Py_XDECREF(actions);
        return PyErr_NoMemory();
    }
    if (actions) return actions;
    Py_RETURN_NONE;
fail:
    Py_XDECREF(fresh);
    Py_XDECREF(actions);
    return NULL;
}

/* win_chances(weights): per seat, the win model's chance (envs/catan/agents/value.py, whose
 * features() this restates in C: the same 17 features in the same order, held to it by
 * tests/test_win_model.py), softmax over the seats of the weighted features. */
#define N_WIN_FEATURES 17
static int read_weights(PyObject *arg, const char *what, double *w) {
    PyObject *seq = PySequence_Fast(arg, "expected a sequence of weights");
    if (seq == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != N_WIN_FEATURES) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d weights, got %zd", what,
                     N_WIN_FEATURES, PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return -1;
    }
    for (int k = 0; k < N_WIN_FEATURES; k++) {
        w[k] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, k));
        if (w[k] == -1.0 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

/* The win model's chance per seat of `g` into out[0..n-1]. */
static void win_chances(const State *g, const double *w, double *out) {
    int n = g->n;
    int produce[MAX_SEATS][N_RES] = {{0}};
    for (int v = 0; v < N_NODES; v++) {
        int q = g->owner[v];
        if (q < 0) continue;
        for (int i = 0; i < n_node_hexes[v]; i++) {
            int h = node_hexes[v][i], r = g->hex_resource[h];
            if (h != g->robber && r >= 0) produce[q][r] += pips_of(g->hex_number[h]) * g->building[v];
        }
    }
    double score[MAX_SEATS], top = -1e300;
    for (int q = 0; q < n; q++) {
        const int *p = produce[q], *dev = g->dev_hand[q], *rates = g->rates[q];
        int vp = victory_points(g, q), hand = g->hand_size[q], total = 0, kinds = 0;
        int held = 0, two = 0, three = 0;
        for (int r = 0; r < N_RES; r++) {
            total += p[r];
            kinds += p[r] > 0;
            two += rates[r] == 2;
            three |= rates[r] == 3;
        }
        for (int k = 0; k < N_DEV; k++) held += dev[k];
        int spots = __builtin_popcountll(g->network[q] & g->site_free);
        int after = ((q - g->current) % n + n) % n;
        double x[N_WIN_FEATURES] = {
            vp, vp > 7 ? vp - 7 : 0, total, kinds, p[2] + p[4] /* grain, ore */, p[0] + p[3],
            hand, hand > 7 ? hand - 7 : 0, held - dev[VICTORY_POINT], g->dev_played[q][KNIGHT],
            g->road_length[q], spots < 3 ? spots : 3, two, three, after == 1, after == 2,
            after == 3,
        };
        score[q] = 0.0;
        for (int k = 0; k < N_WIN_FEATURES; k++) score[q] += w[k] * x[k];
        if (score[q] > top) top = score[q];
    }
    double odds[MAX_SEATS], sum = 0.0;
    for (int q = 0; q < n; q++) sum += odds[q] = exp(score[q] - top);
    for (int q = 0; q < n; q++) out[q] = odds[q] / sum;
}

static PyObject *float_list(const double *values, int n) {
    PyObject *out = PyList_New(n);
    for (int q = 0; out && q < n; q++) {
        PyObject *item = PyFloat_FromDouble(values[q]);
        if (item == NULL) Py_CLEAR(out);
        else PyList_SET_ITEM(out, q, item);
    }
    return out;
}

static PyObject *Core_win_chances(Core *self, PyObject *arg) {
    double w[N_WIN_FEATURES], chances[MAX_SEATS];
    if (read_weights(arg, "win_chances", w) < 0) return NULL;
    win_chances(&self->g, w, chances);
    return float_list(chances, self->g.n);
}

/* choose(agents): what the acting seat's agent of `agents` (an Agents) decides now. */
static PyObject *Core_choose(Core *self, PyObject *arg) {
    if (ensure_ready(self) < 0) return NULL;
    if (!Py_IS_TYPE(arg, &AgentsType)) {
        PyErr_SetString(PyExc_TypeError, "choose: expected an Agents (core.agents(seats))");
        return NULL;
    }
    Agents *kept = (Agents *)arg;
    if (!same_table(kept, &self->g)) return NULL;
    if (self->g.phase == GAME_OVER) {
        PyErr_SetString(PyExc_ValueError, "choose: the game is over");
        return NULL;
    }
    int16_t legal[N_ACTIONS];
    int a = decide(&self->g, &kept->agents[self->g.acting], self->serial, legal);
    return a < 0 ? NULL : PyLong_FromLong(a);
}

/* ---------------------------------------------------------------------------- the search's
 * determinisations and flat trials (envs/catan/agents/determinise.py, envs/search.py)
 *
 * What the mcts agents do per determinisation, without a round trip to Python per card or per
 * play-out: the same draws from the agent's stream in the same order, so that the agent makes
 * the same decisions in the core as on the reference (tests/test_native_core.py). */

#define CARDS_PER_RESOURCE 19
#define REDEALS 50 /* determinise._REDEALS */

/* random.Random(n) for 0 <= n < 2**64: seeded with n's 32-bit words, least significant first. */
static void mt_seed_u64(MT *mt, uint64_t n) {
    uint32_t key[2] = {(uint32_t)n, (uint32_t)(n >> 32)};
    mt_init_by_array(mt, key, key[1] ? 2 : 1);
}

/* random.Random.shuffle of a list of small integers. */

/* determinise.deal_hidden, draw for draw: `dst` (a copy of `src`) gets everything seat `me`
 * of `src` cannot see dealt again from `rng`: the others' resource cards and development cards,
 * the deck's order, fresh dice and steal streams. 0, or -1 with an error for counts that do
 * not add up (only from a state set by hand). */
static int deal_hidden(const State *src, State *dst, int me, MT *rng) {
    int n = src->n;
    mt_seed_u64(&dst->dice_rng, mt_bits(rng, 64));
    mt_seed_u64(&dst->steal_rng, mt_bits(rng, 64));
    dst->n_faces = 0;
    /* Resource cards: what is outside the bank and this seat's hand, among the others. */
    int pool[N_RES], room[MAX_SEATS] = {0};
    for (int r = 0; r < N_RES; r++) pool[r] = CARDS_PER_RESOURCE - src->bank[r] - src->hands[me][r];
    for (int q = 0; q < n; q++) {
        if (q == me) continue;
        room[q] = src->hand_size[q];
        for (int r = 0; r < N_RES; r++) dst->hands[q][r] = 0;
    }
    if (src->has_offer && (src->phase == TRADE_RESPONSE || src->phase == TRADE_CONFIRM)) {
        /* the offer's maker holds what it gives, each seat that accepted what it asks for */
        for (int i = -1; i < src->n_accepted; i++) {
            int q = i < 0 ? src->current : src->accepted[i];
            int r = i < 0 ? src->offer_give : src->offer_get, k = i < 0 ? src->offer_n : 1;
            if (q == me) continue;
            dst->hands[q][r] += k;
            room[q] -= k;
            pool[r] -= k;
        }
    }
    int8_t cards[N_RES * CARDS_PER_RESOURCE];
    int n_cards = 0, dealt = 0;
    for (int r = 0; r < N_RES; r++) {
        if (pool[r] < 0 || n_cards + pool[r] > N_RES * CARDS_PER_RESOURCE) goto inconsistent;
        for (int i = 0; i < pool[r]; i++) cards[n_cards++] = (int8_t)r;
    }
    mt_shuffle(rng, cards, n_cards);
    for (int q = 0; q < n; q++) {
        if (q == me) continue;
        if (room[q] < 0 || dealt + room[q] > n_cards) goto inconsistent;
        for (int i = 0; i < room[q]; i++) dst->hands[q][cards[dealt++]]++;
    }
    /* Development cards: the unseen ones among the others' hands and the deck. */
    int8_t deck[DECK_SIZE];
    int n_deck = 0, used = 0;
    for (int k = 0; k < N_DEV; k++) {
        int unseen = DEV_DECK_COUNTS[k] - src->dev_hand[me][k];
        for (int q = 0; q < n; q++) unseen -= src->dev_played[q][k];
        if (unseen < 0 || n_deck + unseen > DECK_SIZE) goto inconsistent;
        for (int i = 0; i < unseen; i++) deck[n_deck++] = (int8_t)k;
    }
    for (int attempt = 0; attempt < REDEALS; attempt++) {
        mt_shuffle(rng, deck, n_deck);
        used = 0;
        int nobody_won = 1;
        for (int q = 0; q < n; q++) {
            if (q == me) continue;
            int held = 0, fresh = 0;
            for (int k = 0; k < N_DEV; k++) {
                held += src->dev_hand[q][k];
                fresh += src->dev_new[q][k];
                dst->dev_hand[q][k] = dst->dev_new[q][k] = 0;
            }
            if (used + held > n_deck) goto inconsistent;
            for (int i = 0; i < held; i++) {
                int k = deck[used + i];
                dst->dev_hand[q][k]++;
                if (i < fresh) dst->dev_new[q][k]++; /* a random subset: the deck is shuffled */
            }
            used += held;
            if (src->vp_public[q] + dst->dev_hand[q][VICTORY_POINT] >= src->vp_to_win) nobody_won = 0;
        }
        if (nobody_won) break;
    }
    memcpy(dst->dev_deck, deck + used, (size_t)(n_deck - used));
    dst->deck_len = n_deck - used;
    return 0;
inconsistent:
    PyErr_SetString(PyExc_ValueError, "determinised: the game's card counts do not add up");
    return -1;
}

static int read_stream(PyObject *arg, const char *what, MT **mt) {
    if (!Py_IS_TYPE(arg, &StreamType)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a Stream (the agent's), got %R", what, arg);
        return -1;
    }
    *mt = &((Stream *)arg)->mt;
    return 0;
}

/* A new core: a copy of `self` with everything `seat` cannot see dealt again from `mt`. */
static Core *determinisation(Core *self, int seat, MT *mt) {
    Core *copy = (Core *)Core_clone(self, NULL);
    if (copy != NULL && deal_hidden(&self->g, &copy->g, seat, mt) < 0) Py_CLEAR(copy);
    return copy;
}

/* determinised(rng, seat): a copy with everything `seat` cannot see dealt again from `rng` (a
 * Stream), as determinise.deal_hidden deals it from the same numbers. */
static PyObject *Core_determinised(Core *self, PyObject *args) {
    PyObject *rng;
    int seat;
    MT *mt;
    if (!PyArg_ParseTuple(args, "Oi", &rng, &seat) || read_stream(rng, "determinised", &mt) < 0 ||
        ensure_ready(self) < 0)
        return NULL;
    if (seat < 0 || seat >= self->g.n) {
        PyErr_Format(PyExc_ValueError, "determinised: seat %d is not at this table", seat);
        return NULL;
    }
    return (PyObject *)determinisation(self, seat, mt);
}

/* Per action, per seat, the running sums of flat_trials from `obj` into sums[i * MAX_SEATS + q]. */
static int read_totals(PyObject *obj, Py_ssize_t n_actions, int n, double *sums) {
    PyObject *rows = PySequence_Fast(obj, "flat_trials: expected totals per action");
    if (rows == NULL) return -1;
    int ok = PySequence_Fast_GET_SIZE(rows) == n_actions;
    for (Py_ssize_t i = 0; ok && i < n_actions; i++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(rows, i), "totals");
        ok = row != NULL && PySequence_Fast_GET_SIZE(row) == n;
        for (int q = 0; ok && q < n; q++) {
            double v = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(row, q));
            ok = !(v == -1.0 && PyErr_Occurred());
            sums[i * MAX_SEATS + q] = v;
        }
        Py_XDECREF(row);
    }
    Py_DECREF(rows);
    if (!ok && !PyErr_Occurred())
        PyErr_Format(PyExc_ValueError, "flat_trials: expected %zd totals (one per action) of %d "
                     "numbers (one per seat)", n_actions, n);
    return ok ? 0 : -1;
}

/* flat_trials(rng, seat, actions, agents, until, weights, reps, totals): sequential halving's
 * flat judgement of a root's actions (envs/search.py, SearchAgent._flat_round), `reps` times
 * over: a determinisation for `seat` (as determinised(rng, seat)), then for each action a copy
 * of it that takes the action and plays on with `agents` (an Agents) until `until` (as play);
 * the copy's reward per seat is added to the action's running sums: the win model's chances
 * with `weights` (as win_chances) for a play-out cut off, 1 to the winner of one that ended
 * (1/n each without a winner). `totals`: per action, per seat, the sums so far; returns them
 * updated (each reward added in the order the reference adds it: the same floats). */
static PyObject *Core_flat_trials(Core *self, PyObject *args) {
    PyObject *rng, *actions_obj, *agents_obj, *weights, *totals_obj;
    int seat, until, reps;
    MT *mt;
    if (!PyArg_ParseTuple(args, "OiOOiOiO", &rng, &seat, &actions_obj, &agents_obj, &until,
                          &weights, &reps, &totals_obj) ||
        read_stream(rng, "flat_trials", &mt) < 0 || ensure_ready(self) < 0)
        return NULL;
    const State *g = &self->g;
    int n = g->n;
    double w[N_WIN_FEATURES], reward[MAX_SEATS];
    if (read_weights(weights, "flat_trials", w) < 0) return NULL;
    if (seat < 0 || seat >= n || reps < 0) {
        PyErr_Format(PyExc_ValueError, "flat_trials: seat %d or reps %d out of range", seat, reps);
        return NULL;
    }
    if (!Py_IS_TYPE(agents_obj, &AgentsType)) {
        PyErr_SetString(PyExc_TypeError, "flat_trials: expected an Agents (core.agents(seats))");
        return NULL;
    }
    Agents *agents = (Agents *)agents_obj;
    if (!same_table(agents, g)) return NULL;
    PyObject *actions = PySequence_Fast(actions_obj, "flat_trials: expected a list of actions");
    if (actions == NULL) return NULL;
    Py_ssize_t n_actions = PySequence_Fast_GET_SIZE(actions);
    size_t room = (size_t)(n_actions ? n_actions : 1);
    int16_t *chosen = PyMem_Malloc(sizeof(int16_t) * room);
    double *sums = PyMem_Malloc(sizeof(double) * room * MAX_SEATS);
    PyObject *out = NULL;
    if (chosen == NULL || sums == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n_actions; i++) {
        long a;
        if (action_of(PySequence_Fast_GET_ITEM(actions, i), &a) < 0) goto done;
        if (a < 0 || a >= N_ACTIONS || !is_legal(g, (int)a)) {
            PyErr_Format(PyExc_ValueError, "flat_trials: action %ld is not legal here", a);
            goto done;
        }
        chosen[i] = (int16_t)a;
    }
    if (read_totals(totals_obj, n_actions, n, sums) < 0) goto done;
    for (int rep = 0; rep < reps; rep++) {
        Core *shared = determinisation(self, seat, mt);
        if (shared == NULL) goto done;
        for (Py_ssize_t i = 0; i < n_actions; i++) {
            Core *copy = (Core *)Core_clone(shared, NULL);
            if (copy == NULL) {
                Py_DECREF(shared);
                goto done;
            }
            State *c = &copy->g;
            apply(c, chosen[i]);
            /* play_on stops, without an error, on a trace it had no memory for */
            if ((!c->failed && play_on(c, agents->agents, copy->serial, until, NULL) < 0) ||
                c->failed) {
                if (!PyErr_Occurred()) PyErr_NoMemory();
                Py_DECREF(copy);
                Py_DECREF(shared);
                goto done;
            }
            if (c->phase != GAME_OVER) win_chances(c, w, reward);
            else
                for (int q = 0; q < n; q++)
                    reward[q] = c->winner < 0 ? 1.0 / n : (q == c->winner ? 1.0 : 0.0);
            for (int q = 0; q < n; q++) sums[i * MAX_SEATS + q] += reward[q];
            Py_DECREF(copy);
        }
        Py_DECREF(shared);
    }
    out = PyList_New(n_actions);
    for (Py_ssize_t i = 0; out && i < n_actions; i++) {
        PyObject *row = float_list(sums + i * MAX_SEATS, n);
        if (row == NULL) Py_CLEAR(out);
        else PyList_SET_ITEM(out, i, row);
    }
done:
    PyMem_Free(chosen);
    PyMem_Free(sums);
    Py_DECREF(actions);
    return out;
}

static PyObject *Core_get_phase(Core *self, void *Py_UNUSED(closure)) { return PyLong_FromLong(self->g.phase); }
static PyObject *Core_get_acting(Core *self, void *Py_UNUSED(closure)) { return PyLong_FromLong(self->g.acting); }
static PyObject *Core_get_current(Core *self, void *Py_UNUSED(closure)) { return PyLong_FromLong(self->g.current); }
static PyObject *Core_get_n_players(Core *self, void *Py_UNUSED(closure)) { return PyLong_FromLong(self->g.n); }
static PyObject *Core_get_done(Core *self, void *Py_UNUSED(closure)) { return PyBool_FromLong(self->g.phase == GAME_OVER); }
static PyObject *Core_get_winner(Core *self, void *Py_UNUSED(closure)) { return seat_value(self->g.winner); }

static PyGetSetDef Core_getset[] = {
    {"phase", (getter)Core_get_phase, NULL, "The phase (engine.PHASE_NAMES).", NULL},
    {"acting", (getter)Core_get_acting, NULL, "The seat that must decide now.", NULL},
    {"current", (getter)Core_get_current, NULL, "The seat whose turn it is.", NULL},
    {"n_players", (getter)Core_get_n_players, NULL, "Seats at the table.", NULL},
    {"done", (getter)Core_get_done, NULL, "Whether the game is over.", NULL},
    {"winner", (getter)Core_get_winner, NULL, "The winning seat, or None.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* ---------------------------------------------------------------------------- state exchange
 *
 * get_state() and set_state() read and write the game by the names of engine.Game's
 * attributes, in their Python shapes (lists per seat, sets for the networks, None for "none"),
 * so that a position can move between the reference and the core: a search agent's
 * determinisation, and the tests that hold the two engines to each other step by step.
 * The random streams go as random.Random.getstate()[1] tuples.
 */

enum {
    K_INT, K_BOOL, K_SEAT_OR_NONE, K_SEATS, K_SEATS_OR_NONE, K_ROWS, K_RES, K_NODES, K_PATHS,
    K_SITE_FREE, K_NETWORK, K_QUEUE, K_DECK, K_OFFER, K_DICE, K_VP_ROWS, K_RNG, K_FACES
};

typedef struct {
    const char *name;
    int kind;
    size_t offset, count_offset; /* count_offset: a queue's length */
    int low, high;               /* the values allowed (an index must stay in its array) */
} Field;

#define F(name, kind, member, low, high) {name, kind, offsetof(State, member), 0, low, high}
#define Q(name, member, count, low, high) \
    {name, K_QUEUE, offsetof(State, member), offsetof(State, count), low, high}
#define BIG (1 << 24)

static const Field FIELDS[] = {
    F("robber", K_INT, robber, 0, N_HEXES - 1),
    F("owner", K_NODES, owner, -1, MAX_SEATS - 1),
    F("building", K_NODES, building, 0, 2),
    F("site_free", K_SITE_FREE, site_free, 0, 1),
    F("road_owner", K_PATHS, road_owner, -1, MAX_SEATS - 1),
    F("network", K_NETWORK, network, 0, N_NODES - 1),
    F("bank", K_RES, bank, 0, BIG),
    F("hands", K_ROWS, hands, 0, BIG),
    F("hand_size", K_SEATS, hand_size, 0, BIG),
    F("dev_deck", K_DECK, dev_deck, 0, N_DEV - 1),
    F("dev_hand", K_ROWS, dev_hand, 0, BIG),
    F("dev_new", K_ROWS, dev_new, 0, BIG),
    F("dev_played", K_ROWS, dev_played, 0, BIG),
    F("rates", K_ROWS, rates, 1, BIG),
    F("settlements_left", K_SEATS, settlements_left, 0, 5),
    F("cities_left", K_SEATS, cities_left, 0, 4),
    F("roads_left", K_SEATS, roads_left, 0, 15),
    F("road_length", K_SEATS, road_length, 0, 15),
    F("longest_road", K_INT, longest_road, -1, MAX_SEATS - 1),
    F("largest_army", K_INT, largest_army, -1, MAX_SEATS - 1),
    F("vp_public", K_SEATS, vp_public, -BIG, BIG),
    F("phase", K_INT, phase, SETUP_SETTLEMENT, GAME_OVER),
    F("current", K_INT, current, 0, MAX_SEATS - 1),
    F("acting", K_INT, acting, 0, MAX_SEATS - 1),
    F("turns", K_INT, turns, 0, BIG),
    F("winner", K_SEAT_OR_NONE, winner, 0, MAX_SEATS - 1),
    F("truncated", K_BOOL, truncated, 0, 1),
    F("n_actions", K_INT, n_actions, 0, 1 << 30),
    F("_setup_step", K_INT, setup_step, 0, 2 * MAX_SEATS),
    F("_last_settlement", K_INT, last_settlement, -1, N_NODES - 1),
    F("_dev_played_this_turn", K_BOOL, dev_played_this_turn, 0, 1),
    F("_offers_this_turn", K_INT, offers_this_turn, 0, BIG),
    Q("_discarding", discarding, n_discarding, 0, MAX_SEATS - 1),
    F("_to_discard", K_SEATS, to_discard, 0, BIG),
    F("_after_robber", K_INT, after_robber, SETUP_SETTLEMENT, GAME_OVER),
    Q("_victims", victims, n_victims, 0, MAX_SEATS - 1),
    F("_free_roads", K_INT, free_roads, 0, 2),
    F("_after_road_building", K_INT, after_road_building, SETUP_SETTLEMENT, GAME_OVER),
    F("_offer", K_OFFER, has_offer, 0, N_RES - 1),
    Q("_responders", responders, n_responders, 0, MAX_SEATS - 1),
    Q("_accepted", accepted, n_accepted, 0, MAX_SEATS - 1),
    F("robber_moves", K_INT, robber_moves, 0, 1 << 30),
    F("sevens", K_INT, sevens, 0, 1 << 30),
    F("maritime_trades", K_INT, maritime_trades, 0, 1 << 30),
    F("domestic_trades", K_INT, domestic_trades, 0, 1 << 30),
    F("first_settlement_turn", K_SEATS_OR_NONE, first_settlement_turn, 0, BIG),
    F("first_city_turn", K_SEATS_OR_NONE, first_city_turn, 0, BIG),
    F("produced", K_ROWS, produced, 0, BIG),
    F("dice", K_DICE, dice, 2, 12),
    F("vp_by_turn", K_VP_ROWS, vp_rows, -100, 100),
    F("_dice_rng", K_RNG, dice_rng, 0, 0),
    F("_steal_rng", K_RNG, steal_rng, 0, 0),
    /* Not the reference's: die faces to roll before the dice stream's (1..6 each), as the
     * rules tests force the dice of the reference with a stand-in stream. */
    F("_forced_dice", K_FACES, faces, 1, 6),
};
#define N_FIELDS ((int)(sizeof FIELDS / sizeof FIELDS[0]))

static PyObject *int8_list(const int8_t *values, int n) {
    int wide[N_PATHS];
    for (int i = 0; i < n; i++) wide[i] = values[i];
    return int_list(wide, n);
}

static PyObject *field_value(const State *g, const Field *f) {
    const char *base = (const char *)g + f->offset;
    const int *ints = (const int *)base;
    int n = g->n;
    switch (f->kind) {
    case K_INT:
        return PyLong_FromLong(*ints);
    case K_BOOL:
        return PyBool_FromLong(*ints);
    case K_SEAT_OR_NONE:
        return seat_value(*ints);
    case K_SEATS:
        return int_list(ints, n);
    case K_SEATS_OR_NONE: {
        PyObject *out = PyList_New(n);
        for (int q = 0; out && q < n; q++) {
            PyObject *item = seat_value(ints[q]);
            if (item == NULL) Py_CLEAR(out);
            else PyList_SET_ITEM(out, q, item);
        }
        return out;
    }
    case K_ROWS: {
        PyObject *out = PyList_New(n);
        for (int q = 0; out && q < n; q++) {
            PyObject *row = int_list(ints + q * N_RES, N_RES);
            if (row == NULL) Py_CLEAR(out);
            else PyList_SET_ITEM(out, q, row);
        }
        return out;
    }
    case K_RES:
        return int_list(ints, N_RES);
    case K_NODES:
        return int8_list((const int8_t *)base, N_NODES);
    case K_PATHS:
        return int8_list((const int8_t *)base, N_PATHS);
    case K_SITE_FREE: {
        PyObject *out = PyList_New(N_NODES);
        for (int v = 0; out && v < N_NODES; v++)
            PyList_SET_ITEM(out, v, PyBool_FromLong((long)(g->site_free >> v & 1)));
        return out;
    }
    case K_NETWORK: {
        PyObject *out = PyList_New(n);
        for (int q = 0; out && q < n; q++) {
            PyObject *nodes = PySet_New(NULL);
            for (int v = 0; nodes && v < N_NODES; v++) {
                if (!(g->network[q] >> v & 1)) continue;
                PyObject *item = PyLong_FromLong(v);
                if (item == NULL || PySet_Add(nodes, item) < 0) Py_CLEAR(nodes);
                Py_XDECREF(item);
            }
            if (nodes == NULL) Py_CLEAR(out);
            else PyList_SET_ITEM(out, q, nodes);
        }
        return out;
    }
    case K_QUEUE:
        return int_list(ints, *(const int *)((const char *)g + f->count_offset));
    case K_DECK:
        return int8_list(g->dev_deck, g->deck_len);
    case K_OFFER:
        if (!g->has_offer) Py_RETURN_NONE;
        return Py_BuildValue("(iii)", g->offer_give, g->offer_n, g->offer_get);
    case K_DICE: {
        PyObject *out = PyList_New(g->n_dice);
        for (int t = 0; out && t < g->n_dice; t++) {
            PyObject *item = PyLong_FromLong(g->dice[t]);
            if (item == NULL) Py_CLEAR(out);
            else PyList_SET_ITEM(out, t, item);
        }
        return out;
    }
    case K_FACES:
        return int8_list(g->faces, g->n_faces);
    case K_VP_ROWS: {
        PyObject *out = PyList_New(g->n_vp_rows);
        for (int t = 0; out && t < g->n_vp_rows; t++) {
            PyObject *row = PyTuple_New(n);
            for (int q = 0; row && q < n; q++) {
                PyObject *item = PyLong_FromLong(g->vp_rows[(size_t)t * (size_t)n + (size_t)q]);
                if (item == NULL) Py_CLEAR(row);
                else PyTuple_SET_ITEM(row, q, item);
            }
            if (row == NULL) Py_CLEAR(out);
            else PyList_SET_ITEM(out, t, row);
        }
        return out;
    }
    case K_RNG:
        return mt_state((const MT *)base);
    }
    PyErr_SetString(PyExc_SystemError, "get_state: unknown field kind");
    return NULL;
}

/* One integer of field f in low..high, at index i of a list (i < 0: the field itself) under
 * prefix (e.g. "[2]" for row 2); the place is formatted only for an error. */
static int read_value(PyObject *item, const Field *f, const char *prefix, Py_ssize_t i,
                      int *out) {
    long long v = PyLong_AsLongLong(item);
    int wrong_type = v == -1 && PyErr_Occurred();
    if (!wrong_type && v >= f->low && v <= f->high) {
        *out = (int)v;
        return 0;
    }
    char where[48] = "";
    if (i >= 0) snprintf(where, sizeof where, "%s[%zd]", prefix, i);
    if (wrong_type) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "set_state: %s%s: expected an integer, got %R", f->name,
                     where, item);
    } else {
        PyErr_Format(PyExc_ValueError, "set_state: %s%s: expected %d..%d, got %lld", f->name,
                     where, f->low, f->high, v);
    }
    return -1;
}

/* A sequence of exactly `length` (or, with at_most, up to `length`) integers of field f. */
static int read_list(PyObject *value, const Field *f, int length, int at_most, int *out,
                     int *count, const char *prefix) {
    PyObject *seq = PySequence_Fast(value, "set_state: expected a sequence");
    if (seq == NULL) return -1;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(seq);
    if (at_most ? size > length : size != length) {
        PyErr_Format(PyExc_ValueError, "set_state: %s%s: expected %s%d items, got %zd", f->name,
                     prefix, at_most ? "at most " : "", length, size);
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t i = 0; i < size; i++)
        if (read_value(PySequence_Fast_GET_ITEM(seq, i), f, prefix, i, &out[i]) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    if (count) *count = (int)size;
    Py_DECREF(seq);
    return 0;
}

static int read_field(State *g, const Field *f, PyObject *value) {
    char *base = (char *)g + f->offset;
    int *ints = (int *)base, n = g->n, buffer[N_PATHS], count;
    switch (f->kind) {
    case K_INT:
        return read_value(value, f, "", -1, ints);
    case K_BOOL: {
        int truth = PyObject_IsTrue(value);
        if (truth < 0) return -1;
        *ints = truth;
        return 0;
    }
    case K_SEAT_OR_NONE:
        if (value == Py_None) {
            *ints = -1;
            return 0;
        }
        return read_value(value, f, "", -1, ints);
    case K_SEATS:
        return read_list(value, f, n, 0, ints, NULL, "");
    case K_SEATS_OR_NONE: {
        PyObject *seq = PySequence_Fast(value, "set_state: expected a sequence");
        if (seq == NULL) return -1;
        if (PySequence_Fast_GET_SIZE(seq) != n) {
            PyErr_Format(PyExc_ValueError, "set_state: %s: expected %d items", f->name, n);
            Py_DECREF(seq);
            return -1;
        }
        for (int q = 0; q < n; q++) {
            PyObject *item = PySequence_Fast_GET_ITEM(seq, q);
            if (item == Py_None) ints[q] = -1;
            else if (read_value(item, f, "", q, &ints[q]) < 0) {
                Py_DECREF(seq);
                return -1;
            }
        }
        Py_DECREF(seq);
        return 0;
    }
    case K_ROWS: {
        PyObject *seq = PySequence_Fast(value, "set_state: expected a sequence");
        if (seq == NULL) return -1;
        if (PySequence_Fast_GET_SIZE(seq) != n) {
            PyErr_Format(PyExc_ValueError, "set_state: %s: expected %d rows", f->name, n);
            Py_DECREF(seq);
            return -1;
        }
        for (int q = 0; q < n; q++) {
            char where[16];
            snprintf(where, sizeof where, "[%d]", q);
            if (read_list(PySequence_Fast_GET_ITEM(seq, q), f, N_RES, 0, ints + q * N_RES, NULL,
                          where) < 0) {
                Py_DECREF(seq);
                return -1;
            }
        }
        Py_DECREF(seq);
        return 0;
    }
    case K_RES:
        return read_list(value, f, N_RES, 0, ints, NULL, "");
    case K_NODES:
    case K_PATHS: {
        int length = f->kind == K_NODES ? N_NODES : N_PATHS;
        if (read_list(value, f, length, 0, buffer, NULL, "") < 0) return -1;
        for (int i = 0; i < length; i++) ((int8_t *)base)[i] = (int8_t)buffer[i];
        return 0;
    }
    case K_SITE_FREE: {
        PyObject *seq = PySequence_Fast(value, "set_state: expected a sequence");
        if (seq == NULL) return -1;
        if (PySequence_Fast_GET_SIZE(seq) != N_NODES) {
            PyErr_Format(PyExc_ValueError, "set_state: site_free: expected %d items", N_NODES);
            Py_DECREF(seq);
            return -1;
        }
        uint64_t bits = 0;
        for (int v = 0; v < N_NODES; v++) {
            int truth = PyObject_IsTrue(PySequence_Fast_GET_ITEM(seq, v));
            if (truth < 0) {
                Py_DECREF(seq);
                return -1;
            }
            bits |= (uint64_t)truth << v;
        }
        Py_DECREF(seq);
        g->site_free = bits;
        return 0;
    }
    case K_NETWORK: {
        PyObject *seq = PySequence_Fast(value, "set_state: expected a sequence");
        if (seq == NULL) return -1;
        if (PySequence_Fast_GET_SIZE(seq) != n) {
            PyErr_Format(PyExc_ValueError, "set_state: network: expected %d sets", n);
            Py_DECREF(seq);
            return -1;
        }
        for (int q = 0; q < n; q++) {
            char where[16];
            snprintf(where, sizeof where, "[%d]", q);
            if (read_list(PySequence_Fast_GET_ITEM(seq, q), f, N_NODES, 1, buffer, &count,
                          where) < 0) {
                Py_DECREF(seq);
                return -1;
            }
            g->network[q] = 0;
            for (int i = 0; i < count; i++) g->network[q] |= 1ULL << buffer[i];
        }
        Py_DECREF(seq);
        return 0;
    }
    case K_QUEUE:
        return read_list(value, f, MAX_SEATS, 1, ints, (int *)((char *)g + f->count_offset), "");
    case K_DECK:
        if (read_list(value, f, DECK_SIZE, 1, buffer, &count, "") < 0) return -1;
        for (int i = 0; i < count; i++) g->dev_deck[i] = (int8_t)buffer[i];
        g->deck_len = count;
        return 0;
    case K_FACES:
        if (read_list(value, f, 8, 1, buffer, &count, "") < 0) return -1;
        for (int i = 0; i < count; i++) g->faces[i] = (int8_t)buffer[i];
        g->n_faces = count;
        return 0;
    case K_OFFER: {
        if (value == Py_None) {
            g->has_offer = 0;
            return 0;
        }
        int offer[3];
        if (read_list(value, f, 3, 0, offer, NULL, "") < 0) return -1;
        if (offer[1] < 1 || offer[1] > 2 || offer[0] == offer[2]) {
            PyErr_Format(PyExc_ValueError, "set_state: _offer: expected (give, 1 or 2, get) "
                         "with give != get, got %R", value);
            return -1;
        }
        g->has_offer = 1;
        g->offer_give = offer[0];
        g->offer_n = offer[1];
        g->offer_get = offer[2];
        return 0;
    }
    case K_DICE:
    case K_VP_ROWS: {
        int dice = f->kind == K_DICE, width = dice ? 1 : n;
        PyObject *seq = PySequence_Fast(value, "set_state: expected a sequence");
        if (seq == NULL) return -1;
        Py_ssize_t rows = PySequence_Fast_GET_SIZE(seq);
        if (rows > (1 << 24)) {
            PyErr_Format(PyExc_ValueError, "set_state: %s: too long", f->name);
            Py_DECREF(seq);
            return -1;
        }
        int8_t *trace = rows ? PyMem_Malloc((size_t)rows * (size_t)width) : NULL;
        if (rows && trace == NULL) {
            Py_DECREF(seq);
            PyErr_NoMemory();
            return -1;
        }
        for (Py_ssize_t t = 0; t < rows; t++) {
            PyObject *item = PySequence_Fast_GET_ITEM(seq, t);
            char where[32] = "";
            if (!dice) snprintf(where, sizeof where, "[%zd]", t);
            int ok = dice ? read_value(item, f, "", t, buffer)
                          : read_list(item, f, n, 0, buffer, NULL, where);
            if (ok < 0) {
                PyMem_Free(trace);
                Py_DECREF(seq);
                return -1;
            }
            for (int q = 0; q < width; q++) trace[(size_t)t * (size_t)width + (size_t)q] = (int8_t)buffer[q];
        }
        Py_DECREF(seq);
        /* the caller's copy still owns the old buffer: set_state frees it on success */
        if (dice) {
            g->dice = trace;
            g->n_dice = g->cap_dice = (int)rows;
        } else {
            g->vp_rows = trace;
            g->n_vp_rows = g->cap_vp_rows = (int)rows;
        }
        return 0;
    }
    case K_RNG: {
        char what[48];
        snprintf(what, sizeof what, "set_state: %s", f->name);
        return read_mt_state(value, what, (MT *)base);
    }
    }
    PyErr_SetString(PyExc_SystemError, "set_state: unknown field kind");
    return -1;
}

/* Seats named by the state must sit at this table (an index into per-seat arrays). */
static int seats_in_range(const State *g) {
    int n = g->n, bad = g->current >= n || g->acting >= n || g->longest_road >= n ||
                        g->largest_army >= n || g->winner >= n;
    for (int v = 0; v < N_NODES; v++) bad |= g->owner[v] >= n;
    for (int e = 0; e < N_PATHS; e++) bad |= g->road_owner[e] >= n;
    for (int i = 0; i < g->n_discarding; i++) bad |= g->discarding[i] >= n;
    for (int i = 0; i < g->n_victims; i++) bad |= g->victims[i] >= n;
    for (int i = 0; i < g->n_responders; i++) bad |= g->responders[i] >= n;
    for (int i = 0; i < g->n_accepted; i++) bad |= g->accepted[i] >= n;
    if (bad) {
        PyErr_Format(PyExc_ValueError, "set_state: a seat outside 0..%d (current, acting, owner, "
                     "road_owner, a holder, the winner or a queue)", n - 1);
        return -1;
    }
    return 0;
}

static PyObject *Core_get_state(Core *self, PyObject *Py_UNUSED(ignored)) {
    if (ensure_ready(self) < 0) return NULL;
    PyObject *out = PyDict_New();
    if (out == NULL) return NULL;
    for (int i = 0; i < N_FIELDS; i++) {
        PyObject *value = field_value(&self->g, &FIELDS[i]);
        if (value == NULL || PyDict_SetItemString(out, FIELDS[i].name, value) < 0) {
            Py_XDECREF(value);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(value);
    }
    return out;
}

/* set_state(fields): every key a name of get_state(); all or nothing. */
static PyObject *Core_set_state(Core *self, PyObject *fields) {
    if (ensure_ready(self) < 0) return NULL;
    if (!PyDict_Check(fields)) {
        PyErr_SetString(PyExc_TypeError, "set_state: expected a dict of fields");
        return NULL;
    }
    State next = self->g; /* the traces: still the game's buffers until replaced */
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    int failed = 0;
    while (!failed && PyDict_Next(fields, &pos, &key, &value)) {
        const char *name = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
        const Field *f = NULL;
        for (int i = 0; name && i < N_FIELDS; i++)
            if (strcmp(FIELDS[i].name, name) == 0) f = &FIELDS[i];
        if (f == NULL) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_KeyError, "set_state: no field %R (get_state() names them)", key);
            failed = 1;
        } else {
            /* a trace given twice cannot happen (dict keys), so a replaced buffer is ours */
            failed = read_field(&next, f, value) < 0;
        }
    }
    if (!failed) failed = seats_in_range(&next) < 0;
    if (failed) {
        if (next.dice != self->g.dice) PyMem_Free(next.dice);
        if (next.vp_rows != self->g.vp_rows) PyMem_Free(next.vp_rows);
        return NULL;
    }
    if (next.dice != self->g.dice) PyMem_Free(self->g.dice);
    if (next.vp_rows != self->g.vp_rows) PyMem_Free(self->g.vp_rows);
    for (int q = 0; q < MAX_SEATS; q++) next.n_roads[q] = 0;
    for (int e = 0; e < N_PATHS; e++)
        if (next.road_owner[e] >= 0) next.n_roads[next.road_owner[e]]++;
    self->g = next;
    Py_RETURN_NONE;
}

static PyMethodDef Core_methods[] = {
    {"legal_actions", (PyCFunction)Core_legal_actions, METH_NOARGS,
     "The legal actions of the seat acting, in increasing order (a new list)."},
    {"is_legal", (PyCFunction)Core_is_legal, METH_O, "Whether an action is legal now."},
    {"step", (PyCFunction)Core_step, METH_O,
     "Apply a legal action and return True; return False (changing nothing) if it is illegal."},
    {"forced_action", (PyCFunction)Core_forced_action, METH_NOARGS,
     "Game.forced_action: the one action open when there is no decision, else -1."},
    {"clone", (PyCFunction)Core_clone, METH_NOARGS, "An independent copy."},
    {"get_state", (PyCFunction)Core_get_state, METH_NOARGS,
     "The whole state by engine.Game's attribute names, in their Python shapes."},
    {"set_state", (PyCFunction)Core_set_state, METH_O,
     "Set the fields named in a dict (get_state()'s names and shapes); all or nothing."},
    {"record", (PyCFunction)Core_record, METH_NOARGS,
     "The game's fields of a GameRecord, as a tuple (see core.c)."},
    {"play", (PyCFunction)(void (*)(void))Core_play, METH_VARARGS | METH_KEYWORDS,
     "play(seats, log=False, until=-1): the core's agents play to the end, or until `until` "
     "turns have been played (see core.c)."},
    {"agents", (PyCFunction)Core_agents, METH_O,
     "agents(seats): the core's agents for this table, kept across games (see core.c)."},
    {"win_chances", (PyCFunction)Core_win_chances, METH_O,
     "win_chances(weights): per seat, the win model's chance (see core.c)."},
    {"choose", (PyCFunction)Core_choose, METH_O,
     "choose(agents): the acting seat's decision by its agent of an Agents."},
    {"determinised", (PyCFunction)Core_determinised, METH_VARARGS,
     "determinised(rng, seat): a copy with what seat cannot see dealt again (see core.c)."},
    {"flat_trials", (PyCFunction)Core_flat_trials, METH_VARARGS,
     "flat_trials(rng, seat, actions, agents, until, weights, reps, totals): the flat play-outs "
     "of sequential halving's round (see core.c)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ludolab.envs.catan._core.Core",
    .tp_doc = "Core(n_players, hex_resource, hex_number, harbor_at, robber, options, dice_key, "
              "steal_key, deck_key): one game of the rules of engine.Game.",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
};

static int read_table(PyObject *rows_obj, const char *name, int n_rows, int max_width, int low,
                      int high, int8_t *out, int8_t *widths) {
    PyObject *rows = PySequence_Fast(rows_obj, name);
    if (rows == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(rows) != n_rows) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d rows", name, n_rows);
        Py_DECREF(rows);
        return -1;
    }
    for (int i = 0; i < n_rows; i++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(rows, i), name);
        if (row == NULL) {
            Py_DECREF(rows);
            return -1;
        }
        Py_ssize_t width = PySequence_Fast_GET_SIZE(row);
        if (width > max_width || (widths == NULL && width != max_width)) {
            PyErr_Format(PyExc_ValueError, "%s[%d]: expected %s%d items", name, i,
                         widths ? "at most " : "", max_width);
            Py_DECREF(row);
            Py_DECREF(rows);
            return -1;
        }
        for (Py_ssize_t j = 0; j < width; j++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(row, j));
            if ((v == -1 && PyErr_Occurred()) || v < low || v > high) {
                if (!PyErr_Occurred())
                    PyErr_Format(PyExc_ValueError, "%s[%d][%zd]: expected %d..%d", name, i, j,
                                 low, high);
                Py_DECREF(row);
                Py_DECREF(rows);
                return -1;
            }
            out[i * max_width + j] = (int8_t)v;
        }
        if (widths) widths[i] = (int8_t)width;
        Py_DECREF(row);
    }
    Py_DECREF(rows);
    return 0;
}

/* set_topology(hex_corners, node_hexes, node_neighbours, node_paths, path_nodes): the
 * standard layout's tables (topology.Layout), once per process. */
static PyObject *set_topology(PyObject *Py_UNUSED(module), PyObject *args) {
    PyObject *corners, *hexes, *neighbours, *paths, *ends;
    if (!PyArg_ParseTuple(args, "OOOOO", &corners, &hexes, &neighbours, &paths, &ends)) return NULL;
    /* Read into copies: a bad table leaves the loaded one as it was. */
    int8_t c[N_HEXES][6], h[N_NODES][3], nh[N_NODES], b[N_NODES][3], nb[N_NODES];
    int8_t p[N_NODES][3], np[N_NODES], e[N_PATHS][2];
    if (read_table(corners, "hex_corners", N_HEXES, 6, 0, N_NODES - 1, &c[0][0], NULL) < 0 ||
        read_table(hexes, "node_hexes", N_NODES, 3, 0, N_HEXES - 1, &h[0][0], nh) < 0 ||
        read_table(neighbours, "node_neighbours", N_NODES, 3, 0, N_NODES - 1, &b[0][0], nb) < 0 ||
        read_table(paths, "node_paths", N_NODES, 3, 0, N_PATHS - 1, &p[0][0], np) < 0 ||
        read_table(ends, "path_nodes", N_PATHS, 2, 0, N_NODES - 1, &e[0][0], NULL) < 0)
        return NULL;
    memcpy(hex_corners, c, sizeof c);
    memcpy(node_hexes, h, sizeof h);
    memcpy(n_node_hexes, nh, sizeof nh);
    memcpy(node_neighbours, b, sizeof b);
    memcpy(n_node_neighbours, nb, sizeof nb);
    memcpy(node_paths, p, sizeof p);
    memcpy(n_node_paths, np, sizeof np);
    memcpy(path_nodes, e, sizeof e);
    for (int v = 0; v < N_NODES; v++) {
        neighbour_mask[v] = 1ULL << v;
        for (int i = 0; i < n_node_neighbours[v]; i++)
            neighbour_mask[v] |= 1ULL << node_neighbours[v][i];
    }
    topology_loaded = 1;
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"set_topology", set_topology, METH_VARARGS,
     "set_topology(hex_corners, node_hexes, node_neighbours, node_paths, path_nodes)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_core",
    .m_doc = "The native Catan core (see envs/catan/native.py).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&StreamType) < 0 || PyType_Ready(&CoreType) < 0 ||
        PyType_Ready(&AgentsType) < 0)
        return NULL;
    init_action_tables();
    PyObject *m = PyModule_Create(&core_module);
    if (m == NULL) return NULL;
    Py_INCREF(&StreamType);
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Stream", (PyObject *)&StreamType) < 0 ||
        PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0 ||
        PyModule_AddStringConstant(m, "SOURCE_SHA256", SOURCE_SHA256) < 0 ||
        PyModule_AddStringConstant(m, "MIRRORS_SHA256", MIRRORS_SHA256) < 0 ||
        PyModule_AddIntConstant(m, "N_ACTIONS", N_ACTIONS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
