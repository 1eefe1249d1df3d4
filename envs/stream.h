/* A random stream, step for step the same numbers as CPython's random.Random: its Mersenne
 * Twister (MT19937, Matsumoto and Nishimura 1998) in C, random(), getrandbits(k <= 64),
 * _randbelow(n) and shuffle(), and the Python type Stream over it. A stream is seeded with key
 * words, as random.Random.seed turns its seed into them (envs/catan/native.py, stream_key);
 * getstate()/setstate() read and write random.Random's own state tuple, so a stream can move
 * between the two mid-game. tests/test_native_core.py holds every method to random.Random on
 * many seeds.
 *
 * Included by each native core (envs/catan/core.c, envs/gallery/core.c) after Python.h, with
 * STREAM_TYPE_NAME defined: every function is static, each core keeps its own copy (inlined)
 * and its own Stream type. */
#ifndef LUDOLAB_STREAM_H
#define LUDOLAB_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define MT_N 624
#define MT_M 397
#define MATRIX_A 0x9908b0dfU
#define UPPER_MASK 0x80000000U
#define LOWER_MASK 0x7fffffffU

typedef struct {
    uint32_t state[MT_N];
    int index; /* the next word to temper; MT_N: the block must be regenerated first */
} MT;

static void mt_init(MT *mt, uint32_t s) {
    mt->state[0] = s;
    for (int i = 1; i < MT_N; i++) {
        uint32_t prev = mt->state[i - 1];
        mt->state[i] = 1812433253U * (prev ^ (prev >> 30)) + (uint32_t)i;
    }
    mt->index = MT_N;
}

/* The seeding random.Random uses for every seed: the key words mixed into the state. */
static void mt_init_by_array(MT *mt, const uint32_t *key, size_t length) {
    static MT base; /* mt_init(19650218), the same for every key: computed once */
    static int base_ready = 0;
    if (!base_ready) {
        mt_init(&base, 19650218U);
        base_ready = 1;
    }
    memcpy(mt->state, base.state, sizeof base.state);
    size_t i = 1, j = 0;
    for (size_t k = (MT_N > length ? MT_N : length); k; k--) {
        uint32_t prev = mt->state[i - 1];
        mt->state[i] = (mt->state[i] ^ ((prev ^ (prev >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            mt->state[0] = mt->state[MT_N - 1];
            i = 1;
        }
        if (j >= length) j = 0;
    }
    for (size_t k = MT_N - 1; k; k--) {
        uint32_t prev = mt->state[i - 1];
        mt->state[i] = (mt->state[i] ^ ((prev ^ (prev >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            mt->state[0] = mt->state[MT_N - 1];
            i = 1;
        }
    }
    mt->state[0] = 0x80000000U; /* a non-zero initial state, whatever the key */
    mt->index = MT_N;
}

static uint32_t mt_next(MT *mt) {
    if (mt->index >= MT_N) {
        int k;
        uint32_t y;
        for (k = 0; k < MT_N - MT_M; k++) {
            y = (mt->state[k] & UPPER_MASK) | (mt->state[k + 1] & LOWER_MASK);
            mt->state[k] = mt->state[k + MT_M] ^ (y >> 1) ^ ((y & 1U) ? MATRIX_A : 0U);
        }
        for (; k < MT_N - 1; k++) {
            y = (mt->state[k] & UPPER_MASK) | (mt->state[k + 1] & LOWER_MASK);
            mt->state[k] = mt->state[k + (MT_M - MT_N)] ^ (y >> 1) ^ ((y & 1U) ? MATRIX_A : 0U);
        }
        y = (mt->state[MT_N - 1] & UPPER_MASK) | (mt->state[0] & LOWER_MASK);
        mt->state[MT_N - 1] = mt->state[MT_M - 1] ^ (y >> 1) ^ ((y & 1U) ? MATRIX_A : 0U);
        mt->index = 0;
    }
    uint32_t y = mt->state[mt->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random.Random.random(): 53 random bits from two words, in [0, 1). */
static double mt_random(MT *mt) {
    uint32_t a = mt_next(mt) >> 5, b = mt_next(mt) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* random.Random.getrandbits(k) for 0 <= k <= 64: words from the least significant up, the
 * last one cut to the bits still wanted. */
static uint64_t mt_bits(MT *mt, int k) {
    if (k == 0) return 0;
    if (k <= 32) return mt_next(mt) >> (32 - k);
    uint64_t low = mt_next(mt);
    uint64_t high = mt_next(mt) >> (64 - k);
    return low | (high << 32);
}

static int bit_length(uint64_t n) {
    int k = 0;
    while (n) {
        k++;
        n >>= 1;
    }
    return k;
}

/* random.Random._randbelow(n) for n >= 1: k = n.bit_length() bits, drawn again until < n. */
static uint64_t mt_below(MT *mt, uint64_t n) {
    int k = bit_length(n);
    uint64_t r = mt_bits(mt, k);
    while (r >= n) r = mt_bits(mt, k);
    return r;
}

/* random.Random.shuffle on a C array: from the last item down, each swapped with one at or below
 * it. */
static void mt_shuffle(MT *mt, int8_t *items, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)mt_below(mt, (uint64_t)i + 1);
        int8_t a = items[i];
        items[i] = items[j];
        items[j] = a;
    }
}

/* ---------------------------------------------------------------------------- Stream: Python type */

/* Key words of a stream, as Stream(key) takes them, into mt. */
static int seed_from_key(PyObject *key, MT *mt) {
    PyObject *seq = PySequence_Fast(key, "key: expected a sequence of 32-bit words");
    if (seq == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < 1) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "key: expected at least one 32-bit word");
        return -1;
    }
    uint32_t *words = PyMem_Malloc((size_t)n * sizeof(uint32_t));
    if (words == NULL) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long long w = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if ((w == (unsigned long long)-1 && PyErr_Occurred()) || w > 0xffffffffULL) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "key[%zd]: expected an integer in 0..2**32-1", i);
            PyMem_Free(words);
            Py_DECREF(seq);
            return -1;
        }
        words[i] = (uint32_t)w;
    }
    mt_init_by_array(mt, words, (size_t)n);
    PyMem_Free(words);
    Py_DECREF(seq);
    return 0;
}

static PyObject *mt_state(const MT *mt) {
    PyObject *out = PyTuple_New(MT_N + 1);
    if (out == NULL) return NULL;
    for (int i = 0; i <= MT_N; i++) {
        PyObject *w = i < MT_N ? PyLong_FromUnsignedLong(mt->state[i]) : PyLong_FromLong(mt->index);
        if (w == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, w);
    }
    return out;
}

/* random.Random.getstate()[1] (a tuple of 624 words and the index) into *mt; `what` names it
 * in the error. All or nothing: *mt is unchanged on an error. */
static int read_mt_state(PyObject *state, const char *what, MT *mt) {
    MT read;
    if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != MT_N + 1) {
        PyErr_Format(PyExc_ValueError, "%s: expected random.Random.getstate()[1], a tuple of %d "
                     "integers", what, MT_N + 1);
        return -1;
    }
    for (int i = 0; i <= MT_N; i++) {
        unsigned long long w = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(state, i));
        if ((w == (unsigned long long)-1 && PyErr_Occurred()) || w > 0xffffffffULL ||
            (i == MT_N && w > MT_N)) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "%s: item %d is out of range", what, i);
            return -1;
        }
        if (i < MT_N) read.state[i] = (uint32_t)w;
        else read.index = (int)w;
    }
    *mt = read;
    return 0;
}

typedef struct {
    PyObject_HEAD MT mt;
} Stream;

static int Stream_init(Stream *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"key", NULL};
    PyObject *key = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O", kwlist, &key)) return -1;
    return seed_from_key(key, &self->mt);
}

static PyObject *Stream_random(Stream *self, PyObject *Py_UNUSED(ignored)) {
    return PyFloat_FromDouble(mt_random(&self->mt));
}

static PyObject *Stream_getrandbits(Stream *self, PyObject *arg) {
    long k = PyLong_AsLong(arg);
    if (k == -1 && PyErr_Occurred()) return NULL;
    if (k < 0 || k > 64) {
        PyErr_Format(PyExc_ValueError, "getrandbits: k must be in 0..64, got %ld", k);
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(mt_bits(&self->mt, (int)k));
}

static PyObject *Stream_randbelow(Stream *self, PyObject *arg) {
    long long n = PyLong_AsLongLong(arg);
    if (n == -1 && PyErr_Occurred()) return NULL;
    if (n < 1) {
        PyErr_Format(PyExc_ValueError, "randbelow: n must be at least 1, got %lld", n);
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(mt_below(&self->mt, (uint64_t)n));
}

/* random.Random.shuffle(items), in place: Fisher-Yates from the end. */
static PyObject *Stream_shuffle(Stream *self, PyObject *items) {
    if (!PyList_Check(items)) {
        PyErr_SetString(PyExc_TypeError, "shuffle: expected a list");
        return NULL;
    }
    for (Py_ssize_t i = PyList_GET_SIZE(items) - 1; i > 0; i--) {
        Py_ssize_t j = (Py_ssize_t)mt_below(&self->mt, (uint64_t)i + 1);
        PyObject *a = PyList_GET_ITEM(items, i);
        PyList_SET_ITEM(items, i, PyList_GET_ITEM(items, j));
        PyList_SET_ITEM(items, j, a);
    }
    Py_RETURN_NONE;
}

/* The state as random.Random.getstate()[1] holds it: the 624 words, then the index. */
static PyObject *Stream_getstate(Stream *self, PyObject *Py_UNUSED(ignored)) {
    return mt_state(&self->mt);
}

static PyObject *Stream_setstate(Stream *self, PyObject *state) {
    if (read_mt_state(state, "setstate", &self->mt) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef Stream_methods[] = {
    {"random", (PyCFunction)Stream_random, METH_NOARGS, "A float in [0, 1), as random.random()."},
    {"getrandbits", (PyCFunction)Stream_getrandbits, METH_O,
     "k random bits (0 <= k <= 64), as random.getrandbits(k)."},
    {"randbelow", (PyCFunction)Stream_randbelow, METH_O,
     "An integer in [0, n), as random.Random._randbelow(n) (randrange(n))."},
    {"shuffle", (PyCFunction)Stream_shuffle, METH_O, "Shuffle a list in place, as random.shuffle."},
    {"getstate", (PyCFunction)Stream_getstate, METH_NOARGS,
     "The state, as random.Random.getstate()[1]: 624 words and the index."},
    {"setstate", (PyCFunction)Stream_setstate, METH_O, "Set the state getstate() returned."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject StreamType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = STREAM_TYPE_NAME,
    .tp_doc = "Stream(key): random.Random's Mersenne Twister, seeded with key words.",
    .tp_basicsize = sizeof(Stream),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Stream_init,
    .tp_methods = Stream_methods,
};

#endif
