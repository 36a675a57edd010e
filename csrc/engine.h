/* Foundation games as a packed search domain (see engine.c). */
#ifndef PASYANS_ENGINE_H
#define PASYANS_ENGINE_H

#include <Python.h>

PyObject *engine_spec(PyObject *self, PyObject *args);
PyObject *engine_moves(PyObject *self, PyObject *args);
PyObject *engine_play(PyObject *self, PyObject *args);
PyObject *engine_children(PyObject *self, PyObject *args);
PyObject *engine_key(PyObject *self, PyObject *args);
PyObject *engine_won(PyObject *self, PyObject *args);
PyObject *engine_lock(PyObject *self, PyObject *args);
PyObject *engine_dead(PyObject *self, PyObject *args);
PyObject *engine_wastelock(PyObject *self, PyObject *args);
PyObject *engine_hash(PyObject *self, PyObject *args);
PyObject *engine_child_hashes(PyObject *self, PyObject *args);
PyObject *engine_draw_hashes(PyObject *self, PyObject *args);
PyObject *engine_table(PyObject *self, PyObject *args);
PyObject *engine_restarts(PyObject *self, PyObject *args);
PyObject *engine_reach(PyObject *self, PyObject *args);
PyObject *engine_felt(PyObject *self, PyObject *args);
PyObject *engine_candidates(PyObject *self, PyObject *args);

#endif
