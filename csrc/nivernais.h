/* Nivernais' packed positions and best-first search, compiled (see nivernais.c). */
#ifndef PASYANS_NIVERNAIS_H
#define PASYANS_NIVERNAIS_H

#include <Python.h>

PyObject *nivernais_children(PyObject *self, PyObject *args);
PyObject *nivernais_candidates(PyObject *self, PyObject *args);
PyObject *nivernais_forced(PyObject *self, PyObject *args);
PyObject *nivernais_dead(PyObject *self, PyObject *args);
PyObject *nivernais_locked(PyObject *self, PyObject *args);
PyObject *nivernais_score(PyObject *self, PyObject *args);
PyObject *nivernais_key(PyObject *self, PyObject *args);
PyObject *nivernais_search(PyObject *self, PyObject *args);

#endif
