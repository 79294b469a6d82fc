/* Checkpoints: everything a run needs to continue bitwise, on any number of
 * ranks, in one parallel HDF5 file (see io/h5file.h for the tmp+rename rule).
 *
 * Layout, format "hdem checkpoint 4" (N particles, M history records, W walls):
 *   /particles/<name> for every field the particle store marks
 *     FIELD_CHECKPOINT: id int64, type, flags int32, radius, mass, inertia
 *     float64 [N]; position, position_at_build, velocity, angular_velocity,
 *     force, torque float64 [N][3]
 *   /history/owner, kind, partner int64 [M] (kind 0: partner is a particle's
 *     id, 1: a plane wall's index), owner_position_at_build float64 [M][3],
 *     and the record's fields (ContactHistoryFields): spring [M][3],
 *     impact_speed, overlap, normal_force, step float64 [M], touched int64
 *     [M], rolling_torque [M][3], bridge_liquid [M]: each particle's
 *     records, keyed by global ids (in a wet run /particles/liquid too)
 *   (format 1, still read: no /history/kind, a wall's partner -1 - w)
 *   /walls/normal, /walls/point float64 [W][3]
 *   attributes of /: format, hdem_version, options; time, dt, bound, dt_min,
 *     dt_max, dt_sum, energy_initial, work_gravity, skin, rmax, domain_lo_*,
 *     domain_hi_*; step, particles, lost, rebuilds, rebuild_next, warned_fixed.
 * A particle's position_at_build (where the neighbour lists were last built)
 * lets a restart rebuild exactly the lists, ghosts and ownership the
 * uninterrupted run has, whatever the rank count.
 *
 * Every dataset carries a uint64 attribute "checksum" of its rows in file
 * order (io/h5file.h: the same whatever the rank count that wrote it).
 * Reading checks the file as a deck is checked, before any of it is used:
 * the attributes (time finite and >= 0, dt, bound, dt_min, skin, rmax
 * finite and > 0, the other reals finite, step, particles and lost >= 0
 * adding up to particles_initial, flags 0 or 1), each dataset present with
 * the rows the attributes say, every value (reals finite; radius, mass,
 * inertia > 0, radius <= rmax; ids in [0, 2^53]; position_at_build and
 * owner_position_at_build inside the box; history kinds 0 or 1, partners a
 * particle other than the owner or a wall of the deck; wall normals unit
 * vectors; liquid >= 0), each dataset against its checksum, unique ids,
 * and each history record's owner a particle of the file.  With bodies
 * (checkpoint_bodies.c): each member row's body mass and principal moments
 * > 0 and a rigid body's (triangle inequality), its orientation a unit
 * quaternion, its template the deck's; the /bodies datasets (written for readers)
 * finite, one row per body; every member's body in /bodies/id, every body
 * whole.  /flow (checkpoint_flow.c): counts and times >= 0, exact sums
 * canonical, checksums.  The first failure (by
 * check, then by row) is an error naming the file, the dataset or
 * attribute, the row and its id or key, and the value, raised on every
 * rank together.  A file without checksums (written before they were kept)
 * is read with a note on stdout; one where only some datasets have one was
 * rewritten by another tool and is refused. */
#ifndef HDEM_CHECKPOINT_H
#define HDEM_CHECKPOINT_H

#include "engine/engine.h"
#include "engine/checkpoint_sets.h"

PETSC_EXTERN PetscErrorCode CheckpointWrite(Engine *, const char *path, const char *options);
/* Collective: e has its grid, model, step control and walls from the deck and
 * no particles; fills particles, histories and the time-loop state, then
 * resumes the engine (EngineResume). */
PETSC_EXTERN PetscErrorCode CheckpointRead(Engine *, const char *path);

/* ---- between checkpoint.c (writing, loading) and checkpoint_check.c
 * (reading and checking); not for other callers -------------------------- */

#endif
