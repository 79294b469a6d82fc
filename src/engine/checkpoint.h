/* Checkpoints: everything a run needs to continue bitwise, on any number of
 * ranks, in one parallel HDF5 file (see io/h5file.h for the tmp+rename rule).
 *
 * Layout, format "hdem checkpoint 2" (N particles, M history records, W walls):
 *   /particles/<name> for every field the particle store marks
 *     FIELD_CHECKPOINT: id int64, type, flags int32, radius, mass, inertia
 *     float64 [N]; position, position_at_build, velocity, angular_velocity,
 *     force, torque float64 [N][3]
 *   /history/owner, kind, partner int64 [M] (kind 0: partner is a particle's
 *     id, 1: a plane wall's index), owner_position_at_build float64 [M][3],
 *     and the record's fields (ContactHistoryFields): spring [M][3],
 *     impact_speed, overlap, normal_force, step float64 [M], touched int64
 *     [M]: each particle's records, keyed by global ids
 *   (format 1, still read: no /history/kind, a wall's partner -1 - w)
 *   /walls/normal, /walls/point float64 [W][3]
 *   attributes of /: format, hdem_version, options; time, dt, bound, dt_min,
 *     dt_max, dt_sum, energy_initial, work_gravity, skin, rmax, domain_lo_*,
 *     domain_hi_*; step, particles, lost, rebuilds, rebuild_next, warned_fixed.
 * A particle's position_at_build (where the neighbour lists were last built)
 * lets a restart rebuild exactly the lists, ghosts and ownership the
 * uninterrupted run has, whatever the rank count. */
#ifndef HDEM_CHECKPOINT_H
#define HDEM_CHECKPOINT_H

#include "engine/engine.h"

PETSC_EXTERN PetscErrorCode CheckpointWrite(Engine *, const char *path, const char *options);
/* Collective: e has its grid, model, step control and walls from the deck and
 * no particles; fills particles, histories and the time-loop state, then
 * resumes the engine (EngineResume). */
PETSC_EXTERN PetscErrorCode CheckpointRead(Engine *, const char *path);

#endif
