/* The native Masters Gallery core (issue 52), built as ludolab.envs.gallery._core;
 * envs/gallery/native.py loads it, and runs the Python reference in its place when it is
 * missing, stale (this source, or a Python file it states a second time, changed since it was
 * built: SOURCE_SHA256, MIRRORS_SHA256) or switched off (LUDOLAB_PURE_PYTHON=1).
 *
 * One concept in one file: a second statement of the reference engine (envs/gallery/engine.py)
 * with the random, leader and greedy agents (envs/gallery/agents/), held to the Python action for
 * action, in a flat state with no pointers, so that a clone is one memcpy: what a search's
 * play-outs need. The greedy agent's arithmetic is the reference's, operation for operation, so
 * that its choices are the same floats compared in the same order.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STREAM_TYPE_NAME "ludolab.envs.gallery._core.Stream"
#include "../stream.h"

#ifndef MIRRORS_SHA256 /* the Python files this states a second time, "path=sha256;..." */
#define MIRRORS_SHA256 ""
#endif
#ifndef SOURCE_SHA256
#define SOURCE_SHA256 ""
#endif

/* ---------------------------------------------------------------------------- the rules */

#define N_ARTISTS 5
#define N_SYMBOLS 6
#define N_TYPES 30
#define N_CARDS 95
#define MAX_SEATS 5
#define MAX_ROUNDS 20

enum { PLAIN, DRAW, DOUBLE, AWARD, FACE_DOWN, SIMULTANEOUS };
enum { PLAY, SECOND, AWARD_CHOICE, SIMULTANEOUS_PLAY, GAME_OVER };
enum { A_PLAY = 0, A_SECOND = 30, A_AWARD_TO = 60, A_DECLINE = 65, N_ACTIONS = 66 };
enum { SECOND_DOUBLE, SECOND_FACE_DOWN };

typedef struct { /* GalleryOptions, resolved for the player count */
    int n, end_count, hand_size, rounds, later[MAX_ROUNDS], n_rank, rank_tokens[N_ARTISTS];
    int rank_empty, award_value, award_tokens, award_choice, second_effects, closing_effects;
    int left_of_closer, extra_card, extra_each_round;
    int8_t type_of[N_CARDS];
    int type_total[N_TYPES];
} Rules;

typedef struct { /* engine.RoundLog */
    int starter, closer, turns; /* closer -1: the round ended with no cards left */
    int exhibits[MAX_SEATS][N_ARTISTS], extra[N_ARTISTS], awards[N_ARTISTS];
    int n_ranking, ranking[N_ARTISTS], values[N_ARTISTS], scores[MAX_SEATS], dealt[MAX_SEATS];
} RoundLog;

typedef struct {
    Rules r;
    int8_t pile[N_CARDS]; /* the top card last */
    int pile_len;
    int hands[MAX_SEATS][N_TYPES], hand_size[MAX_SEATS];
    int exhibit[MAX_SEATS][N_ARTISTS], face_down[MAX_SEATS][N_TYPES];
    int artist_count[N_ARTISTS], extra_count[N_ARTISTS], table[N_TYPES], discarded[N_TYPES];
    int tokens[N_ARTISTS], awards[N_ARTISTS], awards_left, round_awards[N_ARTISTS];
    int scores[MAX_SEATS];
    int round, phase, current, acting, starter, turns, n_actions, n_winners, winners[MAX_SEATS];
    int last_player, second_kind, second_artist, award_closes;
    int queue[MAX_SEATS], n_queue, pending[MAX_SEATS][2], n_pending;
    int drawn[MAX_SEATS], missed_draws, dealt[MAX_SEATS], dealt_round[MAX_SEATS];
    int deck_ran_out, n_logs;
    RoundLog logs[MAX_ROUNDS];
} State;

/* Game._compute_legal: in increasing order. out must hold N_ACTIONS entries. */
static int legal_actions(const State *g, int *out) {
    const int *hand = g->hands[g->acting], *total = g->r.type_total;
    int k = 0;
    switch (g->phase) {
    case PLAY:
        for (int t = 0; t < N_TYPES; t++)
            if (total[t] && hand[t]) out[k++] = A_PLAY + t;
        return k;
    case SECOND: {
        int low = 0, high = N_TYPES;
        if (g->second_kind == SECOND_DOUBLE) {
            low = g->second_artist * N_SYMBOLS;
            high = low + N_SYMBOLS;
        }
        for (int t = low; t < high; t++)
            if (total[t] && hand[t]) out[k++] = A_SECOND + t;
        out[k++] = A_DECLINE;
        return k;
    }
    case SIMULTANEOUS_PLAY:
        for (int t = 0; t < N_TYPES; t++)
            if (total[t] && hand[t]) out[k++] = A_PLAY + t;
        out[k++] = A_DECLINE;
        return k;
    case AWARD_CHOICE:
        for (int a = 0; a < N_ARTISTS; a++) out[k++] = A_AWARD_TO + a;
        return k;
    default:
        return 0;
    }
}

static int is_legal(const State *g, int action) {
    if (action < 0 || action >= N_ACTIONS) return 0;
    int legal[N_ACTIONS], n = legal_actions(g, legal);
    for (int i = 0; i < n; i++)
        if (legal[i] == action) return 1;
    return 0;
}

/* rank_artists: by cards (more first), ties to the earlier artist; at most n_ranked. */
static int rank_artists(const int *totals, int n_ranked, int rank_empty, int *out) {
    int order[N_ARTISTS], k = 0;
    for (int a = 0; a < N_ARTISTS; a++) order[a] = a;
    for (int i = 1; i < N_ARTISTS; i++) /* insertion sort: stable, so ties keep artist order */
        for (int j = i; j > 0 && totals[order[j]] > totals[order[j - 1]]; j--) {
            int x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
    for (int i = 0; i < N_ARTISTS && k < n_ranked; i++)
        if (rank_empty || totals[order[i]] > 0) out[k++] = order[i];
    return k;
}

static void begin_round(State *g, int starter);

static void end_round(State *g, int closer) {
    const Rules *r = &g->r;
    int n = r->n;
    RoundLog spare, *log = g->n_logs < MAX_ROUNDS ? &g->logs[g->n_logs++] : &spare;
    int totals[N_ARTISTS];
    for (int a = 0; a < N_ARTISTS; a++) totals[a] = g->extra_count[a];
    for (int q = 0; q < n; q++)
        for (int a = 0; a < N_ARTISTS; a++) {
            int down = 0;
            for (int s = 0; s < N_SYMBOLS; s++) down += g->face_down[q][a * N_SYMBOLS + s];
            log->exhibits[q][a] = g->exhibit[q][a] + down;
            totals[a] += log->exhibits[q][a];
        }
    log->n_ranking = rank_artists(totals, r->n_rank, r->rank_empty, log->ranking);
    for (int i = 0; i < log->n_ranking; i++) g->tokens[log->ranking[i]] += r->rank_tokens[i];
    memset(log->values, 0, sizeof log->values);
    for (int i = 0; i < log->n_ranking; i++) {
        int a = log->ranking[i];
        log->values[a] = g->tokens[a] + r->award_value * g->awards[a];
    }
    for (int q = 0; q < n; q++) {
        int s = 0;
        for (int a = 0; a < N_ARTISTS; a++) s += log->exhibits[q][a] * log->values[a];
        log->scores[q] = s;
        g->scores[q] += s;
    }
    log->starter = g->starter;
    log->closer = closer;
    log->turns = g->turns;
    memcpy(log->extra, g->extra_count, sizeof log->extra);
    memcpy(log->awards, g->round_awards, sizeof log->awards);
    memcpy(log->dealt, g->dealt_round, sizeof log->dealt);
    for (int t = 0; t < N_TYPES; t++) {
        g->discarded[t] += g->table[t];
        g->table[t] = 0;
    }
    memset(g->exhibit, 0, sizeof g->exhibit);
    memset(g->face_down, 0, sizeof g->face_down);
    memset(g->artist_count, 0, sizeof g->artist_count);
    memset(g->extra_count, 0, sizeof g->extra_count);
    memset(g->round_awards, 0, sizeof g->round_awards);
    int next;
    if (closer >= 0) next = r->left_of_closer ? (closer + 1) % n : closer;
    else if (g->last_player >= 0) next = (g->last_player + 1) % n;
    else next = g->starter;
    g->round++;
    if (g->round >= r->rounds) {
        g->phase = GAME_OVER;
        int best = g->scores[0];
        for (int q = 1; q < n; q++)
            if (g->scores[q] > best) best = g->scores[q];
        g->n_winners = 0;
        for (int q = 0; q < n; q++)
            if (g->scores[q] == best) g->winners[g->n_winners++] = q;
        return;
    }
    begin_round(g, next);
}

/* Game._next_turn: the next seat clockwise holding cards plays; none: the round ends. */
static void next_turn(State *g) {
    int n = g->r.n, p = g->current;
    for (int i = 0; i < n; i++) {
        if (++p == n) p = 0;
        if (g->hand_size[p]) {
            g->phase = PLAY;
            g->current = g->acting = p;
            return;
        }
    }
    end_round(g, -1);
}

static void deal_cards(State *g, int k) {
    for (int q = 0; q < g->r.n; q++) {
        int got = k < g->pile_len ? k : g->pile_len;
        for (int i = 0; i < got; i++) g->hands[q][g->r.type_of[g->pile[--g->pile_len]]]++;
        g->hand_size[q] += got;
        g->dealt[q] += got;
        g->dealt_round[q] = got;
        if (got < k) g->deck_ran_out = 1;
    }
}

static void begin_round(State *g, int starter) {
    const Rules *r = &g->r;
    deal_cards(g, g->round == 0 ? r->hand_size : r->later[g->round - 1]);
    if (r->extra_card && (g->round == 0 || r->extra_each_round)) {
        if (g->pile_len) {
            int t = r->type_of[g->pile[--g->pile_len]], a = t / N_SYMBOLS;
            g->extra_count[a]++;
            g->artist_count[a]++;
            g->table[t]++;
        } else {
            g->deck_ran_out = 1;
        }
    }
    g->starter = starter;
    g->turns = 0;
    g->current = starter - 1 < 0 ? r->n - 1 : starter - 1; /* next_turn starts with starter */
    g->last_player = -1;
    next_turn(g);
}

static void place_award(State *g, int a) {
    g->awards[a]++;
    g->round_awards[a]++;
    g->awards_left--;
}

static void ask_award(State *g, int p, int closes) {
    g->phase = AWARD_CHOICE;
    g->acting = p;
    g->award_closes = closes;
}

static void draw(State *g, int p) {
    if (g->pile_len) {
        g->hands[p][g->r.type_of[g->pile[--g->pile_len]]]++;
        g->hand_size[p]++;
        g->drawn[p]++;
    } else {
        g->missed_draws++;
        g->deck_ran_out = 1;
    }
}

/* Game._play: display card type t face up for seat p and carry out its symbol. */
static void play_card(State *g, int p, int t, int effects) {
    const Rules *r = &g->r;
    g->hands[p][t]--;
    g->hand_size[p]--;
    int a = t / N_SYMBOLS, symbol = effects ? t % N_SYMBOLS : PLAIN;
    g->exhibit[p][a]++;
    g->artist_count[a]++;
    g->table[t]++;
    g->last_player = p;
    if (g->artist_count[a] >= r->end_count) {
        if (r->closing_effects) {
            if (symbol == DRAW) {
                draw(g, p);
            } else if (symbol == AWARD && g->awards_left) {
                if (r->award_choice) {
                    ask_award(g, p, 1);
                    return;
                }
                place_award(g, a);
            }
        }
        end_round(g, p);
        return;
    }
    switch (symbol) {
    case DRAW:
        draw(g, p);
        break;
    case AWARD:
        if (g->awards_left) {
            if (r->award_choice) {
                ask_award(g, p, 0);
                return;
            }
            place_award(g, a);
        }
        break;
    case DOUBLE:
        for (int u = a * N_SYMBOLS; u < (a + 1) * N_SYMBOLS; u++)
            if (r->type_total[u] && g->hands[p][u]) {
                g->phase = SECOND;
                g->second_kind = SECOND_DOUBLE;
                g->second_artist = a;
                return;
            }
        break;
    case FACE_DOWN:
        if (g->hand_size[p]) {
            g->phase = SECOND;
            g->second_kind = SECOND_FACE_DOWN;
            return;
        }
        break;
    case SIMULTANEOUS: {
        int n = r->n;
        g->n_queue = 0;
        for (int i = 0; i < n; i++) {
            int q = (p + i) % n;
            if (g->hand_size[q]) g->queue[g->n_queue++] = q;
        }
        if (g->n_queue) {
            g->n_pending = 0;
            g->phase = SIMULTANEOUS_PLAY;
            g->acting = g->queue[0];
            return;
        }
        break;
    }
    }
    next_turn(g);
}

/* Game._simultaneous_pick. */
static void simultaneous_pick(State *g, int q, int action) {
    if (action != A_DECLINE) {
        g->hands[q][action]--;
        g->hand_size[q]--;
        g->table[action]++; /* face down until revealed */
        g->pending[g->n_pending][0] = q;
        g->pending[g->n_pending][1] = action;
        g->n_pending++;
    }
    if (g->n_queue > 0) /* (empty only in a state set by hand) */
        memmove(g->queue, g->queue + 1, sizeof(int) * (size_t)(--g->n_queue));
    if (g->n_queue) {
        g->acting = g->queue[0];
        return;
    }
    int closed = 0;
    for (int i = 0; i < g->n_pending; i++) {
        int seat = g->pending[i][0], a = g->pending[i][1] / N_SYMBOLS;
        g->exhibit[seat][a]++;
        g->artist_count[a]++;
        g->last_player = seat;
        if (g->artist_count[a] >= g->r.end_count) closed = 1;
    }
    g->n_pending = 0;
    if (closed) end_round(g, g->current);
    else next_turn(g);
}

/* Game.step, for an action known to be legal. */
static void apply(State *g, int action) {
    g->n_actions++;
    int p = g->acting;
    switch (g->phase) {
    case PLAY:
        g->turns++;
        play_card(g, p, action - A_PLAY, 1);
        break;
    case SECOND:
        if (action == A_DECLINE) {
            next_turn(g);
        } else if (g->second_kind == SECOND_DOUBLE) {
            play_card(g, p, action - A_SECOND, g->r.second_effects);
        } else {
            int t = action - A_SECOND;
            g->hands[p][t]--;
            g->hand_size[p]--;
            g->face_down[p][t]++;
            g->table[t]++;
            next_turn(g);
        }
        break;
    case SIMULTANEOUS_PLAY:
        simultaneous_pick(g, p, action);
        break;
    case AWARD_CHOICE:
        place_award(g, action - A_AWARD_TO);
        if (g->award_closes) end_round(g, g->current);
        else next_turn(g);
        break;
    }
}

/* Game.__init__: the pile from the deal's order (its first card on top), round 1 begun. */
static void new_game(State *g, const Rules *rules, const int *order) {
    memset(g, 0, sizeof *g);
    g->r = *rules;
    for (int i = 0; i < N_CARDS; i++) g->pile[i] = (int8_t)order[N_CARDS - 1 - i];
    g->pile_len = N_CARDS;
    g->awards_left = rules->award_tokens;
    g->last_player = -1;
    begin_round(g, 0);
}

/* ---------------------------------------------------------------------------- the agents
 *
 * RandomAgent, LeaderAgent and GreedyAgent (envs/gallery/agents/), decision for decision. */

enum { AGENT_RANDOM, AGENT_LEADER, AGENT_GREEDY };

typedef struct {
    int kind, seat;
    MT rng;                                          /* random */
    double sharpness, card_value, symbol_hold;       /* greedy's parameters */
    int opponents_mean;
} Agent;

static int random_act(Agent *me, const int *legal, int n) {
    return legal[(int)(mt_random(&me->rng) * n)];
}

/* LeaderAgent._key, compared: whether artist a leads artist b. */
static int leads(const State *g, int a, int b) {
    if (g->artist_count[a] != g->artist_count[b]) return g->artist_count[a] > g->artist_count[b];
    int va = g->tokens[a] + g->r.award_value * g->awards[a];
    int vb = g->tokens[b] + g->r.award_value * g->awards[b];
    if (va != vb) return va > vb;
    return a < b;
}

static const int LEADER_SYMBOL_ORDER[4] = {DRAW, PLAIN, DOUBLE, AWARD};

/* LeaderAgent._pick over card types (increasing). */
static int leader_pick(const State *g, const int *types, int n) {
    int best_a = -1;
    for (int i = 0; i < n; i++) {
        int a = types[i] / N_SYMBOLS;
        if (best_a < 0 || leads(g, a, best_a)) best_a = a;
    }
    for (int s = 0; s < 4; s++)
        for (int i = 0; i < n; i++)
            if (types[i] / N_SYMBOLS == best_a && types[i] % N_SYMBOLS == LEADER_SYMBOL_ORDER[s])
                return types[i];
    for (int i = 0; i < n; i++)
        if (types[i] / N_SYMBOLS == best_a) return types[i];
    return types[0];
}

static int leader_act(const State *g, const int *legal, int n) {
    if (n == 1) return legal[0];
    switch (g->phase) {
    case PLAY:
        return leader_pick(g, legal, n);
    case SECOND:
    case SIMULTANEOUS_PLAY: {
        int offset = g->phase == SECOND ? A_SECOND : A_PLAY, cards[N_ACTIONS], k = 0;
        for (int i = 0; i < n; i++)
            if (legal[i] != A_DECLINE) cards[k++] = legal[i] - offset;
        return k ? leader_pick(g, cards, k) + offset : A_DECLINE;
    }
    case AWARD_CHOICE: {
        int best = 0;
        for (int a = 1; a < N_ARTISTS; a++)
            if (leads(g, a, best)) best = a;
        return A_AWARD_TO + best;
    }
    }
    return legal[0];
}

typedef struct { /* GreedyAgent._read: what one decision reads from the table */
    const Agent *me;
    const Rules *r;
    int last_round, deck, awards_left;
    int mine[N_ARTISTS], counts[N_ARTISTS], face_up[N_ARTISTS], base[N_ARTISTS];
    int n_opp, opp[MAX_SEATS][N_ARTISTS];
} Position;

static void greedy_read(const State *g, const Agent *me, Position *x) {
    const Rules *r = &g->r;
    int p = me->seat;
    x->me = me;
    x->r = r;
    x->last_round = g->round >= r->rounds - 1;
    x->deck = g->pile_len;
    x->awards_left = g->awards_left;
    for (int a = 0; a < N_ARTISTS; a++) {
        int down = 0;
        for (int s = 0; s < N_SYMBOLS; s++) down += g->face_down[p][a * N_SYMBOLS + s];
        x->mine[a] = g->exhibit[p][a] + down;
        x->counts[a] = g->artist_count[a] + down;
        x->face_up[a] = g->artist_count[a];
        x->base[a] = g->tokens[a] + r->award_value * g->awards[a];
    }
    x->n_opp = 0;
    for (int q = 0; q < r->n; q++)
        if (q != p) memcpy(x->opp[x->n_opp++], g->exhibit[q], sizeof x->opp[0]);
}

/* GreedyAgent._expected_values: per artist, P(it ranks) x its value if it keeps its place. */
static void expected_values(const Position *x, const int *counts, const int *face_up,
                            const int *base, double *value) {
    const Rules *r = x->r;
    int k = r->n_rank, order[N_ARTISTS], top = face_up[0];
    for (int a = 0; a < N_ARTISTS; a++) order[a] = a;
    for (int i = 1; i < N_ARTISTS; i++)
        for (int j = i; j > 0 && counts[order[j]] > counts[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    for (int a = 1; a < N_ARTISTS; a++)
        if (face_up[a] > top) top = face_up[a];
    int to_go = r->end_count - top;
    if (to_go < 1) to_go = 1;
    double slope = x->me->sharpness / sqrt((double)to_go);
    for (int a = 0; a < N_ARTISTS; a++) value[a] = 0.0;
    for (int i = 0; i < N_ARTISTS; i++) {
        int a = order[i], token;
        if (counts[a] == 0 && !r->rank_empty) continue;
        double p;
        if (k >= N_ARTISTS) {
            p = 1.0;
            token = r->rank_tokens[i];
        } else if (i < k) {
            double margin = (double)(counts[a] - counts[order[k]]) + 0.5;
            p = 1.0 / (1.0 + exp(-slope * margin));
            token = r->rank_tokens[i];
        } else {
            double margin = (double)(counts[a] - counts[order[k - 1]]) - 0.5;
            p = 1.0 / (1.0 + exp(-slope * margin));
            token = r->rank_tokens[k - 1];
        }
        value[a] = p * (double)(base[a] + token);
    }
}

/* GreedyAgent._compute_balance: own expected round money minus the opponents' (best or mean). */
static double balance(const Position *x, const int *counts, const int *face_up, const int *mine,
                      const int *base) {
    const Rules *r = x->r;
    double value[N_ARTISTS];
    int top = face_up[0];
    for (int a = 1; a < N_ARTISTS; a++)
        if (face_up[a] > top) top = face_up[a];
    if (top >= r->end_count) {
        int ranking[N_ARTISTS], n = rank_artists(counts, r->n_rank, r->rank_empty, ranking);
        for (int a = 0; a < N_ARTISTS; a++) value[a] = 0.0;
        for (int i = 0; i < n; i++) value[ranking[i]] = (double)(base[ranking[i]] + r->rank_tokens[i]);
    } else {
        expected_values(x, counts, face_up, base, value);
    }
    double own = 0.0;
    for (int a = 0; a < N_ARTISTS; a++)
        if (mine[a]) own += mine[a] * value[a];
    if (!x->n_opp) return own;
    double other = 0.0;
    for (int i = 0; i < x->n_opp; i++) {
        double s = 0.0;
        for (int a = 0; a < N_ARTISTS; a++)
            if (x->opp[i][a]) s += x->opp[i][a] * value[a];
        if (x->me->opponents_mean) other += s;
        else if (i == 0 || s > other) other = s;
    }
    if (x->me->opponents_mean) other /= x->n_opp;
    return own - other;
}

/* GreedyAgent._best_award: the balance after placing an award (on a, or the best artist). */
static double best_award(const Position *x, int a, const int *counts, const int *face_up,
                         const int *mine, const int *base) {
    double best = -INFINITY;
    int low = x->r->award_choice ? 0 : a, high = x->r->award_choice ? N_ARTISTS : a + 1;
    for (int b = low; b < high; b++) {
        int placed[N_ARTISTS];
        memcpy(placed, base, sizeof placed);
        placed[b] += x->r->award_value;
        double v = balance(x, counts, face_up, mine, placed);
        if (v > best) best = v;
    }
    return best;
}

/* GreedyAgent._after: the value of displaying card type t face up now (its symbol carried out
 * if effects), counting a double's best second card when hand is given (depth 0). */
static double after(const Position *x, int t, const int *counts0, const int *face_up0,
                    const int *mine0, const int *base, int effects, const int *hand, int depth) {
    const Agent *me = x->me;
    int a = t / N_SYMBOLS, symbol = t % N_SYMBOLS;
    int counts[N_ARTISTS], face_up[N_ARTISTS], mine[N_ARTISTS];
    memcpy(counts, counts0, sizeof counts);
    memcpy(face_up, face_up0, sizeof face_up);
    memcpy(mine, mine0, sizeof mine);
    counts[a]++;
    face_up[a]++;
    mine[a]++;
    int closes = face_up[a] >= x->r->end_count;
    double bonus = 0.0;
    if (symbol == DOUBLE || symbol == AWARD) bonus -= me->symbol_hold;
    if (effects && (!closes || x->r->closing_effects)) {
        if (symbol == DRAW && x->deck > 0)
            bonus += me->card_value;
        else if (symbol == AWARD && x->awards_left > 0)
            return bonus + best_award(x, a, counts, face_up, mine, base);
    }
    double value = balance(x, counts, face_up, mine, base);
    if (effects && symbol == DOUBLE && !closes && hand != NULL && depth == 0) {
        double cost = x->last_round ? 0.0 : me->card_value;
        for (int u = a * N_SYMBOLS; u < (a + 1) * N_SYMBOLS; u++)
            if (hand[u] - (u == t)) {
                double second = after(x, u, counts, face_up, mine, base, x->r->second_effects,
                                      NULL, 1) - cost;
                if (second > value) value = second;
            }
    }
    return bonus + value;
}

/* The value GreedyAgent.act gives `action` in the phase of `g` (declining aside). */
static double action_value(const State *g, const Position *x, int action) {
    double cost = x->last_round ? 0.0 : x->me->card_value;
    switch (g->phase) {
    case PLAY:
        return after(x, action, x->counts, x->face_up, x->mine, x->base, 1,
                     g->hands[x->me->seat], 0);
    case SECOND:
        if (g->second_kind == SECOND_DOUBLE)
            return after(x, action - A_SECOND, x->counts, x->face_up, x->mine, x->base,
                         g->r.second_effects, NULL, 1) - cost;
        else { /* face down: counts for ranking and money, not for ending the round */
            int a = (action - A_SECOND) / N_SYMBOLS, c2[N_ARTISTS], m2[N_ARTISTS];
            memcpy(c2, x->counts, sizeof c2);
            memcpy(m2, x->mine, sizeof m2);
            c2[a]++;
            m2[a]++;
            return balance(x, c2, x->face_up, m2, x->base) - cost;
        }
    case AWARD_CHOICE: {
        int placed[N_ARTISTS];
        memcpy(placed, x->base, sizeof placed);
        placed[action - A_AWARD_TO] += g->r.award_value;
        return balance(x, x->counts, x->face_up, x->mine, placed);
    }
    default: /* a simultaneous pick: revealed with the others, its symbol ignored */
        return after(x, action, x->counts, x->face_up, x->mine, x->base, 0, NULL, 1) - cost;
    }
}

/* GreedyAgent.act: the legal action of the highest value, the first on a tie; a second card
 * or a simultaneous pick must beat declining, valued first. */
static int greedy_act(const State *g, const Agent *me, const int *legal, int n) {
    if (n == 1) return legal[0];
    Position x;
    greedy_read(g, me, &x);
    int best = legal[0];
    double best_value = -INFINITY;
    if (g->phase == SECOND || g->phase == SIMULTANEOUS_PLAY) {
        best = A_DECLINE;
        best_value = balance(&x, x.counts, x.face_up, x.mine, x.base);
    }
    for (int i = 0; i < n; i++) {
        if (legal[i] == A_DECLINE) continue;
        double v = action_value(g, &x, legal[i]);
        if (v > best_value) {
            best = legal[i];
            best_value = v;
        }
    }
    return best;
}

/* The acting seat's agent's decision now; -1 with an error when nothing is legal (only in a
 * state set by hand: the reference's agents fail there too). */
static int decide(const State *g, Agent *agent) {
    int legal[N_ACTIONS], n = legal_actions(g, legal);
    if (n == 0) {
        PyErr_Format(PyExc_RuntimeError, "no legal action for seat %d in phase %d", g->acting,
                     g->phase);
        return -1;
    }
    switch (agent->kind) {
    case AGENT_RANDOM:
        return random_act(agent, legal, n);
    case AGENT_LEADER:
        return leader_act(g, legal, n);
    default:
        return greedy_act(g, agent, legal, n);
    }
}

/* The agents play on to the end, each action appended to `log` when it is a list. 0, or -1
 * with an error. */
static int play_on(State *g, Agent *agents, PyObject *log) {
    while (g->phase != GAME_OVER) {
        int a = decide(g, &agents[g->acting]);
        if (a < 0) return -1;
        if (log) {
            PyObject *item = PyLong_FromLong(a);
            if (item == NULL || PyList_Append(log, item) < 0) {
                Py_XDECREF(item);
                return -1;
            }
            Py_DECREF(item);
        }
        apply(g, a);
    }
    return 0;
}

/* ---------------------------------------------------------------------------- Core: Python type */

typedef struct {
    PyObject_HEAD State g;
} Core;

static PyTypeObject CoreType;

/* Reads a sequence of at most `most` ints in low..high into out; its length, or -1 with an
 * error naming `what`. */
static int read_ints(PyObject *obj, const char *what, int most, int low, int high, int *out) {
    PyObject *seq = PySequence_Fast(obj, what);
    if (seq == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > most) {
        PyErr_Format(PyExc_ValueError, "%s: expected at most %d values, got %zd", what, most, n);
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if ((v == -1 && PyErr_Occurred()) || v < low || v > high) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "%s[%zd]: expected an integer in %d..%d", what, i, low,
                         high);
            Py_DECREF(seq);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(seq);
    return (int)n;
}

/* Core(order, type_of, n_players, end_count, hand_size, later_deals, rank_tokens, flags,
 * award_value, award_tokens): the game Game(Deal(n_players, order), options) at its start;
 * type_of the card types of the 95 ids (cards.card_types(options.symbols)), flags the options'
 * switches (rank_empty_artists, award_choice, second_card_effects, closing_card_effects,
 * left_of_closer, extra_card, extra_card_each_round). */
static int Core_init(Core *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"order", "type_of", "n_players", "end_count", "hand_size",
                             "later_deals", "rank_tokens", "flags", "award_value",
                             "award_tokens", NULL};
    PyObject *order_obj, *type_obj, *later_obj, *tokens_obj, *flags_obj;
    Rules r;
    memset(&r, 0, sizeof r);
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOiiiOOOii", kwlist, &order_obj, &type_obj,
                                     &r.n, &r.end_count, &r.hand_size, &later_obj, &tokens_obj,
                                     &flags_obj, &r.award_value, &r.award_tokens))
        return -1;
    int order[N_CARDS], types[N_CARDS], flags[7], seen[N_CARDS] = {0};
    if (read_ints(order_obj, "order", N_CARDS, 0, N_CARDS - 1, order) != N_CARDS ||
        read_ints(type_obj, "type_of", N_CARDS, 0, N_TYPES - 1, types) != N_CARDS) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "order and type_of: expected 95 values each");
        return -1;
    }
    for (int i = 0; i < N_CARDS; i++) {
        if (seen[order[i]]++) {
            PyErr_Format(PyExc_ValueError, "order: card %d twice", order[i]);
            return -1;
        }
        r.type_of[i] = (int8_t)types[i];
        r.type_total[types[i]]++;
    }
    int later = read_ints(later_obj, "later_deals", MAX_ROUNDS - 1, 0, N_CARDS, r.later);
    if (later < 0) return -1;
    r.rounds = later + 1;
    r.n_rank = read_ints(tokens_obj, "rank_tokens", N_ARTISTS, 0, 1 << 20, r.rank_tokens);
    if (r.n_rank < 0) return -1;
    if (read_ints(flags_obj, "flags", 7, 0, 1, flags) != 7) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "flags: expected 7 values");
        return -1;
    }
    if (r.n < 2 || r.n > MAX_SEATS || r.end_count < 1 || r.hand_size < 0 || r.n_rank < 1 ||
        r.award_value < 0 || r.award_tokens < 0) {
        PyErr_SetString(PyExc_ValueError, "Core: a count out of range");
        return -1;
    }
    r.rank_empty = flags[0];
    r.award_choice = flags[1];
    r.second_effects = flags[2];
    r.closing_effects = flags[3];
    r.left_of_closer = flags[4];
    r.extra_card = flags[5];
    r.extra_each_round = flags[6];
    new_game(&self->g, &r, order);
    return 0;
}

static PyObject *int_list(const int *values, int n) {
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *item = PyLong_FromLong(values[i]);
        if (item == NULL) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

static PyObject *Core_legal_actions(Core *self, PyObject *Py_UNUSED(ignored)) {
    int legal[N_ACTIONS];
    return int_list(legal, legal_actions(&self->g, legal));
}

static PyObject *Core_step(Core *self, PyObject *arg) {
    int overflow;
    long a = PyLong_AsLongAndOverflow(arg, &overflow);
    if (a == -1 && PyErr_Occurred()) return NULL;
    if (overflow) Py_RETURN_FALSE; /* too large to be an action: illegal */
    if (a < 0 || a >= N_ACTIONS || !is_legal(&self->g, (int)a)) Py_RETURN_FALSE;
    apply(&self->g, (int)a);
    Py_RETURN_TRUE;
}

static PyObject *Core_clone(Core *self, PyObject *Py_UNUSED(ignored)) {
    Core *copy = PyObject_New(Core, &CoreType);
    if (copy) copy->g = self->g;
    return (PyObject *)copy;
}

/* Agents from seats: ("random", key words), ("leader",) or ("greedy", sharpness, card_value,
 * symbol_hold, opponents_mean); all or nothing. */
static int read_agents(PyObject *seats, int n, Agent *agents) {
    PyObject *seq = PySequence_Fast(seats, "seats: expected a sequence");
    if (seq == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != n) {
        PyErr_Format(PyExc_ValueError, "seats: expected %d agents, got %zd", n,
                     PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return -1;
    }
    for (int q = 0; q < n; q++) {
        PyObject *seat = PySequence_Fast_GET_ITEM(seq, q), *key;
        Agent *a = &agents[q];
        memset(a, 0, sizeof *a);
        a->seat = q;
        const char *kind = "";
        if (PyTuple_Check(seat) && PyTuple_GET_SIZE(seat) >= 1 &&
            PyUnicode_Check(PyTuple_GET_ITEM(seat, 0)))
            kind = PyUnicode_AsUTF8(PyTuple_GET_ITEM(seat, 0));
        if (kind == NULL) break;
        if (strcmp(kind, "random") == 0 && PyArg_ParseTuple(seat, "sO", &kind, &key)) {
            a->kind = AGENT_RANDOM;
            if (seed_from_key(key, &a->rng) < 0) break;
            continue;
        }
        if (strcmp(kind, "leader") == 0 && PyTuple_GET_SIZE(seat) == 1) {
            a->kind = AGENT_LEADER;
            continue;
        }
        if (strcmp(kind, "greedy") == 0 &&
            PyArg_ParseTuple(seat, "sdddp", &kind, &a->sharpness, &a->card_value,
                             &a->symbol_hold, &a->opponents_mean)) {
            a->kind = AGENT_GREEDY;
            continue;
        }
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "seats[%d]: expected (\"random\", key words), "
                     "(\"leader\",) or (\"greedy\", sharpness, card_value, symbol_hold, "
                     "opponents_mean), got %R", q, seat);
        break;
    }
    Py_DECREF(seq);
    return PyErr_Occurred() ? -1 : 0;
}

/* A table of agents (Core.agents(seats)): their streams go on from game to game, as a search's
 * Python playout agents' do. */
typedef struct {
    PyObject_HEAD int n;
    Agent agents[MAX_SEATS];
} Agents;

static PyTypeObject AgentsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ludolab.envs.gallery._core.Agents",
    .tp_basicsize = sizeof(Agents),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Agents of the core, one per seat (Core.agents(seats)).",
};

static PyObject *Core_agents(Core *self, PyObject *seats) {
    Agents *out = PyObject_New(Agents, &AgentsType);
    if (out == NULL) return NULL;
    out->n = self->g.r.n;
    if (read_agents(seats, out->n, out->agents) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return (PyObject *)out;
}

/* The agents of `obj`, an Agents of this table's size or a list of seats (read into `room`). */
static Agent *agents_of(const State *g, PyObject *obj, Agent *room) {
    if (Py_IS_TYPE(obj, &AgentsType)) {
        Agents *agents = (Agents *)obj;
        if (agents->n != g->r.n) {
            PyErr_Format(PyExc_ValueError, "agents: made for %d seats, the game has %d",
                         agents->n, g->r.n);
            return NULL;
        }
        return agents->agents;
    }
    return read_agents(obj, g->r.n, room) < 0 ? NULL : room;
}

/* play(agents, log=False): the agents (an Agents, or seats) play to the end; with log, the
 * actions taken. */
static PyObject *Core_play(Core *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"agents", "log", NULL};
    PyObject *obj;
    int want_log = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|p", kwlist, &obj, &want_log)) return NULL;
    Agent room[MAX_SEATS], *agents = agents_of(&self->g, obj, room);
    if (agents == NULL) return NULL;
    PyObject *log = want_log ? PyList_New(0) : NULL;
    if (want_log && log == NULL) return NULL;
    if (play_on(&self->g, agents, log) < 0) {
        Py_XDECREF(log);
        return NULL;
    }
    if (log) return log;
    Py_RETURN_NONE;
}

/* choose(agents): the acting seat's agent's decision now (the game must not be over). */
static PyObject *Core_choose(Core *self, PyObject *obj) {
    Agent room[MAX_SEATS], *agents = agents_of(&self->g, obj, room);
    if (agents == NULL) return NULL;
    if (self->g.phase == GAME_OVER) {
        PyErr_SetString(PyExc_ValueError, "choose: the game is over");
        return NULL;
    }
    int a = decide(&self->g, &agents[self->g.acting]);
    return a < 0 ? NULL : PyLong_FromLong(a);
}

/* mcts.determinise: a copy in which every card `seat` cannot see is dealt again from `rng`,
 * draw for draw as the reference deals it. */
static void deal_unseen(const State *src, State *g, int me, MT *rng) {
    const Rules *r = &src->r;
    int n = r->n, face_up[N_TYPES], own_picks[N_TYPES] = {0};
    for (int t = 0; t < N_TYPES; t++) face_up[t] = src->table[t];
    for (int q = 0; q < n; q++)
        for (int t = 0; t < N_TYPES; t++) face_up[t] -= src->face_down[q][t];
    for (int i = 0; i < src->n_pending; i++) {
        face_up[src->pending[i][1]]--;
        if (src->pending[i][0] == me) own_picks[src->pending[i][1]]++;
    }
    int8_t unseen[N_CARDS];
    int k = 0;
    for (int t = 0; t < N_TYPES; t++) {
        int c = r->type_total[t] - src->discarded[t] - face_up[t] - src->hands[me][t] -
                src->face_down[me][t] - own_picks[t];
        for (int i = 0; i < c && k < N_CARDS; i++) unseen[k++] = (int8_t)t;
    }
    mt_shuffle(rng, unseen, k);
    int next = 0;
    *g = *src;
    for (int q = 0; q < n; q++) {
        if (q == me) continue;
        int down = 0;
        for (int t = 0; t < N_TYPES; t++) down += src->face_down[q][t];
        memset(g->hands[q], 0, sizeof g->hands[q]);
        for (int i = 0; i < src->hand_size[q] && next < k; i++) g->hands[q][unseen[next++]]++;
        memset(g->face_down[q], 0, sizeof g->face_down[q]);
        for (int i = 0; i < down && next < k; i++) g->face_down[q][unseen[next++]]++;
    }
    for (int i = 0; i < src->n_pending; i++)
        if (src->pending[i][0] != me && next < k) g->pending[i][1] = unseen[next++];
    for (int t = 0; t < N_TYPES; t++) g->table[t] = face_up[t];
    for (int q = 0; q < n; q++)
        for (int t = 0; t < N_TYPES; t++) g->table[t] += g->face_down[q][t];
    for (int i = 0; i < g->n_pending; i++) g->table[g->pending[i][1]]++;
    /* The rest is the deck in the shuffled order (its top card last), as card ids of those
     * types: the highest unused id of a type first. */
    int top_id[N_TYPES];
    for (int t = 0; t < N_TYPES; t++) top_id[t] = N_CARDS;
    g->pile_len = 0;
    for (; next < k; next++) {
        int t = unseen[next], id = top_id[t] - 1;
        while (id >= 0 && r->type_of[id] != t) id--;
        top_id[t] = id;
        g->pile[g->pile_len++] = (int8_t)id;
    }
}

static PyObject *Core_determinised(Core *self, PyObject *args) {
    PyObject *rng;
    int seat;
    if (!PyArg_ParseTuple(args, "Oi", &rng, &seat)) return NULL;
    if (!Py_IS_TYPE(rng, &StreamType)) {
        PyErr_Format(PyExc_TypeError, "determinised: expected a Stream (the agent's), got %R",
                     rng);
        return NULL;
    }
    if (seat < 0 || seat >= self->g.r.n) {
        PyErr_Format(PyExc_ValueError, "determinised: seat %d out of range", seat);
        return NULL;
    }
    Core *copy = PyObject_New(Core, &CoreType);
    if (copy) deal_unseen(&self->g, &copy->g, seat, &((Stream *)rng)->mt);
    return (PyObject *)copy;
}

/* state[key] into out: exactly `count` integers in low..high (count < 0: at most -count; the
 * number read is returned). -1 with an error naming the key. */
static int state_ints(PyObject *state, const char *key, int count, int low, int high, int *out) {
    PyObject *value = PyDict_GetItemString(state, key);
    if (value == NULL) {
        PyErr_Format(PyExc_KeyError, "set_state: no %s", key);
        return -1;
    }
    if (PyLong_Check(value)) { /* a single number */
        long v = PyLong_AsLong(value);
        if (count != 1 || v < low || v > high) {
            PyErr_Format(PyExc_ValueError, "set_state: %s = %ld, expected %d..%d", key, v, low,
                         high);
            return -1;
        }
        out[0] = (int)v;
        return 1;
    }
    int most = count < 0 ? -count : count;
    char what[64];
    snprintf(what, sizeof what, "set_state: %s", key);
    int n = read_ints(value, what, most, low, high, out);
    if (n >= 0 && count >= 0 && n != count) {
        PyErr_Format(PyExc_ValueError, "set_state: %s has %d values, expected %d", key, n, count);
        return -1;
    }
    return n;
}

/* set_state(state): the position of a reference game, by the names of game_state() in
 * envs/gallery/native.py (lists flattened seat by seat); all or nothing. The rounds' logs are
 * not loaded (a search never reads them). */
static PyObject *Core_set_state(Core *self, PyObject *state) {
    if (!PyDict_Check(state)) {
        PyErr_SetString(PyExc_TypeError, "set_state: expected a dict");
        return NULL;
    }
    State g = self->g;
    int n = g.r.n, pile[N_CARDS], buf[MAX_SEATS * N_TYPES], pending[2 * MAX_SEATS], one;
    int k = state_ints(state, "pile", -N_CARDS, 0, N_CARDS - 1, pile);
    if (k < 0) return NULL;
    g.pile_len = k;
    for (int i = 0; i < k; i++) g.pile[i] = (int8_t)pile[i];
#define SEAT_ROWS(key, field, width)                                                       \
    if (state_ints(state, key, n * (width), 0, N_CARDS, buf) < 0) return NULL;             \
    for (int q = 0; q < n; q++) memcpy(g.field[q], buf + q * (width), sizeof(int) * (width));
#define ROW(key, field, width, high)                                                       \
    if (state_ints(state, key, width, 0, high, g.field) < 0) return NULL;
#define ONE(key, field, low, high)                                                         \
    if (state_ints(state, key, 1, low, high, &one) < 0) return NULL;                       \
    g.field = one;
    SEAT_ROWS("hands", hands, N_TYPES)
    SEAT_ROWS("exhibit", exhibit, N_ARTISTS)
    SEAT_ROWS("face_down_types", face_down, N_TYPES)
    ROW("hand_size", hand_size, n, N_CARDS)
    ROW("artist_count", artist_count, N_ARTISTS, N_CARDS)
    ROW("extra_count", extra_count, N_ARTISTS, N_CARDS)
    ROW("table_types", table, N_TYPES, N_CARDS)
    ROW("discarded", discarded, N_TYPES, N_CARDS)
    ROW("tokens", tokens, N_ARTISTS, 1 << 24)
    ROW("awards", awards, N_ARTISTS, 1 << 24)
    ROW("round_awards", round_awards, N_ARTISTS, 1 << 24)
    ROW("scores", scores, n, 1 << 24)
    ROW("drawn", drawn, n, N_CARDS)
    ROW("dealt", dealt, n, N_CARDS)
    ONE("awards_left", awards_left, 0, 1 << 24)
    ONE("round", round, 0, g.r.rounds)
    ONE("phase", phase, PLAY, GAME_OVER)
    ONE("current", current, 0, n - 1)
    ONE("acting", acting, 0, n - 1)
    ONE("starter", starter, 0, n - 1)
    ONE("turns", turns, 0, 1 << 24)
    ONE("n_actions", n_actions, 0, INT32_MAX)
    ONE("last_player", last_player, -1, n - 1)
    ONE("second_kind", second_kind, SECOND_DOUBLE, SECOND_FACE_DOWN)
    ONE("second_artist", second_artist, 0, N_ARTISTS - 1)
    ONE("award_closes", award_closes, 0, 1)
    ONE("missed_draws", missed_draws, 0, 1 << 24)
    ONE("deck_ran_out", deck_ran_out, 0, 1)
#undef SEAT_ROWS
#undef ROW
#undef ONE
    if ((g.n_winners = state_ints(state, "winners", -n, 0, n - 1, g.winners)) < 0 ||
        (g.n_queue = state_ints(state, "simul_queue", -n, 0, n - 1, g.queue)) < 0 ||
        state_ints(state, "dealt_this_round", -n, 0, N_CARDS, g.dealt_round) < 0)
        return NULL;
    int n_pending = state_ints(state, "simul_pending", -2 * n, 0, N_TYPES - 1, pending);
    if (n_pending < 0) return NULL;
    if (n_pending % 2) {
        PyErr_SetString(PyExc_ValueError, "set_state: simul_pending: expected (seat, type) pairs");
        return NULL;
    }
    g.n_pending = n_pending / 2;
    if (g.n_pending + g.n_queue > n) { /* each seat in a simultaneous play picks once */
        PyErr_SetString(PyExc_ValueError, "set_state: more simultaneous picks than seats");
        return NULL;
    }
    for (int i = 0; i < g.n_pending; i++) {
        if (pending[2 * i] >= n) {
            PyErr_Format(PyExc_ValueError, "set_state: simul_pending: seat %d", pending[2 * i]);
            return NULL;
        }
        g.pending[i][0] = pending[2 * i];
        g.pending[i][1] = pending[2 * i + 1];
    }
    g.n_logs = 0;
    self->g = g;
    Py_RETURN_NONE;
}

static PyObject *Core_forced_action(Core *self, PyObject *Py_UNUSED(ignored)) {
    (void)self;
    return PyLong_FromLong(-1); /* Game.forced_action: every choice is a decision */
}

static PyObject *Core_get_done(Core *self, void *Py_UNUSED(closure)) {
    return PyBool_FromLong(self->g.phase == GAME_OVER);
}

static PyObject *Core_get_acting(Core *self, void *Py_UNUSED(closure)) {
    return PyLong_FromLong(self->g.acting);
}

static PyObject *Core_get_n_players(Core *self, void *Py_UNUSED(closure)) {
    return PyLong_FromLong(self->g.r.n);
}

static PyObject *Core_get_winners(Core *self, void *Py_UNUSED(closure)) {
    PyObject *out = PyTuple_New(self->g.n_winners);
    for (int i = 0; out && i < self->g.n_winners; i++) {
        PyObject *q = PyLong_FromLong(self->g.winners[i]);
        if (q == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyTuple_SET_ITEM(out, i, q);
    }
    return out;
}

static PyGetSetDef Core_getset[] = {
    {"done", (getter)Core_get_done, NULL, "Whether the game is over.", NULL},
    {"acting", (getter)Core_get_acting, NULL, "The seat that must decide now.", NULL},
    {"n_players", (getter)Core_get_n_players, NULL, "Seats at the table.", NULL},
    {"winners", (getter)Core_get_winners, NULL, "The winning seats (once the game is over).",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* The state by the reference's attribute names (the fields a record and a test read). */
static PyObject *Core_get_state(Core *self, PyObject *Py_UNUSED(ignored)) {
    const State *g = &self->g;
    int n = g->r.n, pile[N_CARDS], hands[MAX_SEATS * N_TYPES], exhibit[MAX_SEATS * N_ARTISTS];
    int down[MAX_SEATS * N_TYPES], pending[2 * MAX_SEATS];
    for (int i = 0; i < g->pile_len; i++) pile[i] = g->pile[i];
    for (int i = 0; i < g->n_pending; i++) {
        pending[2 * i] = g->pending[i][0];
        pending[2 * i + 1] = g->pending[i][1];
    }
    for (int q = 0; q < n; q++) {
        memcpy(hands + q * N_TYPES, g->hands[q], sizeof g->hands[q]);
        memcpy(exhibit + q * N_ARTISTS, g->exhibit[q], sizeof g->exhibit[q]);
        memcpy(down + q * N_TYPES, g->face_down[q], sizeof g->face_down[q]);
    }
    PyObject *logs = PyList_New(g->n_logs);
    for (int i = 0; logs && i < g->n_logs; i++) {
        const RoundLog *l = &g->logs[i];
        int ex[MAX_SEATS * N_ARTISTS];
        for (int q = 0; q < n; q++) memcpy(ex + q * N_ARTISTS, l->exhibits[q], sizeof l->exhibits[q]);
        PyObject *row = Py_BuildValue("{s:i,s:i,s:i,s:N,s:N,s:N,s:N,s:N,s:N,s:N}", "starter",
                                      l->starter, "closer", l->closer, "turns", l->turns,
                                      "exhibits", int_list(ex, n * N_ARTISTS), "extra",
                                      int_list(l->extra, N_ARTISTS), "awards",
                                      int_list(l->awards, N_ARTISTS), "ranking",
                                      int_list(l->ranking, l->n_ranking), "values",
                                      int_list(l->values, N_ARTISTS), "scores",
                                      int_list(l->scores, n), "dealt", int_list(l->dealt, n));
        if (row == NULL) Py_CLEAR(logs);
        else PyList_SET_ITEM(logs, i, row);
    }
    if (logs == NULL) return NULL;
    return Py_BuildValue(
        "{s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:i,s:N,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:N,s:N,"
        "s:i,s:N,s:i,s:N,s:N,s:N,s:N}",
        "pile", int_list(pile, g->pile_len), "hands", int_list(hands, n * N_TYPES),
        "hand_size", int_list(g->hand_size, n), "exhibit", int_list(exhibit, n * N_ARTISTS),
        "face_down_types", int_list(down, n * N_TYPES), "artist_count",
        int_list(g->artist_count, N_ARTISTS), "extra_count", int_list(g->extra_count, N_ARTISTS),
        "discarded", int_list(g->discarded, N_TYPES), "tokens", int_list(g->tokens, N_ARTISTS),
        "awards", int_list(g->awards, N_ARTISTS), "awards_left", g->awards_left, "scores",
        int_list(g->scores, n), "round", g->round, "phase", g->phase, "current", g->current,
        "acting", g->acting, "starter", g->starter, "turns", g->turns, "n_actions", g->n_actions,
        "winners", int_list(g->winners, g->n_winners), "drawn", int_list(g->drawn, n),
        "missed_draws", g->missed_draws, "dealt", int_list(g->dealt, n), "deck_ran_out",
        g->deck_ran_out, "rounds_log", logs, "table_types", int_list(g->table, N_TYPES),
        "simul_pending", int_list(pending, 2 * g->n_pending), "simul_queue",
        int_list(g->queue, g->n_queue));
}

static PyMethodDef Core_methods[] = {
    {"legal_actions", (PyCFunction)Core_legal_actions, METH_NOARGS, "The legal actions."},
    {"step", (PyCFunction)Core_step, METH_O, "Apply a legal action: True, else False."},
    {"clone", (PyCFunction)Core_clone, METH_NOARGS, "An independent copy."},
    {"play", (PyCFunction)(void (*)(void))Core_play, METH_VARARGS | METH_KEYWORDS,
     "play(agents, log=False): the agents play to the end."},
    {"agents", (PyCFunction)Core_agents, METH_O, "agents(seats): the core's agents, kept."},
    {"choose", (PyCFunction)Core_choose, METH_O, "choose(agents): the acting agent's choice."},
    {"determinised", (PyCFunction)Core_determinised, METH_VARARGS,
     "determinised(rng, seat): a copy with what seat cannot see dealt again."},
    {"set_state", (PyCFunction)Core_set_state, METH_O, "Load a reference game's position."},
    {"forced_action", (PyCFunction)Core_forced_action, METH_NOARGS, "-1: no forced actions."},
    {"get_state", (PyCFunction)Core_get_state, METH_NOARGS, "The state, by the reference's names."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ludolab.envs.gallery._core.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One Masters Gallery game in the native core.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core", "The native Masters Gallery core (see core.c).", -1, NULL,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&StreamType) < 0 || PyType_Ready(&CoreType) < 0 ||
        PyType_Ready(&AgentsType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (m == NULL) return NULL;
    Py_INCREF(&CoreType);
    Py_INCREF(&StreamType);
    Py_INCREF(&AgentsType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0 ||
        PyModule_AddObject(m, "Stream", (PyObject *)&StreamType) < 0 ||
        PyModule_AddObject(m, "Agents", (PyObject *)&AgentsType) < 0 ||
        PyModule_AddStringConstant(m, "SOURCE_SHA256", SOURCE_SHA256) < 0 ||
        PyModule_AddStringConstant(m, "MIRRORS_SHA256", MIRRORS_SHA256) < 0 ||
        PyModule_AddIntConstant(m, "N_ACTIONS", N_ACTIONS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
