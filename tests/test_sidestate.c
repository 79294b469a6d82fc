/* The contact side-state table (ContactSides): each state's checkpoint
 * fields are the rows of ContactHistoryFields with its prefix, they tile its
 * member of ContactRecord exactly up to its declared spare end, and the
 * slots keep, copy and zero only the states a model enables. */
#include <string.h>
#include "check_main.h"
#include "interact/history.h"
#include "interact/bridge.h"
#include "engine/checkpoint.h"

static size_t FieldBytes(const RecordField *rf)
{
  return (size_t)rf->ncomp * (rf->type == FIELD_REAL ? sizeof(PetscReal) : sizeof(PetscInt64));
}

START_TEST(test_fields_tile_states)
{
  for (int k = 0; k < CONTACT_SIDES; k++) {
    const ContactSideState *cs    = &ContactSides[k];
    size_t                  bytes = 0;
    ck_assert(cs->since >= 1 && cs->since <= CHECKPOINT_VERSION);
    for (const RecordField *rf = ContactHistoryFields; rf->name; rf++) {
      PetscBool named  = strncmp(rf->name, cs->prefix, strlen(cs->prefix)) ? PETSC_FALSE : PETSC_TRUE;
      PetscBool inside = rf->offset >= cs->offset && rf->offset + FieldBytes(rf) <= cs->offset + cs->size - cs->spare;
      ck_assert_msg(named == inside, "field %s and side state %s: named %d, inside %d", rf->name, cs->name, named,
                    inside);
      if (inside) bytes += FieldBytes(rf);
    }
    ck_assert_msg(bytes + cs->spare == cs->size, "side state %s: fields of %zu bytes and %zu spare for %zu", cs->name,
                  bytes, cs->spare, cs->size);
  }
  /* every field past the history's own belongs to a side state */
  for (const RecordField *rf = ContactHistoryFields; rf->name; rf++) {
    PetscInt owners = rf->offset < sizeof(ContactHistory) ? 1 : 0;
    for (int k = 0; k < CONTACT_SIDES; k++)
      owners += rf->offset >= ContactSides[k].offset && rf->offset < ContactSides[k].offset + ContactSides[k].size;
    ck_assert_msg(owners == 1, "field %s has %d owners", rf->name, (int)owners);
  }
}
END_TEST

/* A model with rolling resistance and liquid but the plain tangential spring: slots keep two states. */
START_TEST(test_slots_keep_enabled_states)
{
  ContactModel  model;
  HistorySlots  hs;
  ContactRecord rec, back;
  LocalInt      slot;

  PetscCallAbort(PETSC_COMM_SELF, PetscMemzero(&model, sizeof(model)));
  PetscCallAbort(PETSC_COMM_SELF, PetscMemzero(&hs, sizeof(hs)));
  model.rolls            = PETSC_TRUE;
  model.liquid.on        = PETSC_TRUE;
  model.tangential.model = TANGENTIAL_SHEAR_DISPLACEMENT;
  HistorySlotsSetUp(&hs, &model);
  ck_assert(HistorySlotsHas(&hs, CONTACT_SIDE_ROLLING) && HistorySlotsHas(&hs, CONTACT_SIDE_BRIDGE));
  ck_assert(!HistorySlotsHas(&hs, CONTACT_SIDE_TURNING));
  for (int n = 0; n < 3000; n++) PetscCallAbort(PETSC_COMM_SELF, HistorySlotsNew(&hs, &slot)); /* grows twice */
  ck_assert(HistorySlotsRolling(&hs, slot)->mr[2] == 0.0 && HistorySlotsBridge(&hs, slot)->V == 0.0);
  ck_assert(HistorySlotsTurning(&hs, slot) == NULL);
  ck_assert(!HistorySlotsLive(&hs, slot));
  HistorySlotsBridge(&hs, slot)->V = 2e-12;
  ck_assert(HistorySlotsLive(&hs, slot));
  HistorySlotsRolling(&hs, slot)->mr[1] = -3.5;
  /* a record carries what the run keeps and zero for the rest */
  memset(&rec, 0xff, sizeof(rec));
  HistorySlotsRecord(&hs, slot, &rec);
  ck_assert(rec.r.mr[1] == -3.5 && rec.b.V == 2e-12 && rec.t.ts[0] == 0.0 && rec.t.phase == 0.0);
  back         = rec;
  back.r.mr[1] = 7.0, back.t.mun = 9.0;
  HistorySlotsFromRecord(&hs, 0, &back);
  ck_assert(HistorySlotsRolling(&hs, 0)->mr[1] == 7.0 && HistorySlotsBridge(&hs, 0)->V == 2e-12);
  PetscCallAbort(PETSC_COMM_SELF, HistorySlotsDestroy(&hs));
}
END_TEST

/* A slot's bridge shape: none until formed (a slot grown or new), formed for
 * its volume and radius and kept while they stand, formed again when either
 * changes; the forces from it the bits of the forces from V and R. */
START_TEST(test_bridge_shape_kept)
{
  ContactModel       model;
  HistorySlots       hs;
  LocalInt           slot;
  LiquidShape        local, fresh, *sh;
  const Liquid      *lq = &model.liquid;
  const LiquidShape *s;
  const PetscReal    R = 1.2e-3, V = 3e-12, S[] = {-1e-6, 0.0, 2e-6, 5e-5};

  PetscCallAbort(PETSC_COMM_SELF, PetscMemzero(&model, sizeof(model)));
  PetscCallAbort(PETSC_COMM_SELF, PetscMemzero(&hs, sizeof(hs)));
  model.liquid.on = PETSC_TRUE, model.liquid.gamma = 0.072, model.liquid.theta = 0.2;
  model.liquid.viscosity = 1e-3, model.liquid.cutoff = 1e-3;
  HistorySlotsSetUp(&hs, &model);
  for (int n = 0; n < 3000; n++) PetscCallAbort(PETSC_COMM_SELF, HistorySlotsNew(&hs, &slot));
  sh = HistorySlotsShape(&hs, slot);
  ck_assert(sh && sh->V == 0.0 && HistorySlotsShape(&hs, 1500)->V == 0.0);
  for (int f = 0; f < 2; f++) {
    model.liquid.force = f ? LIQUID_WILLETT_SIMPLE : LIQUID_WILLETT;
    sh->V              = 0.0;
    s                  = BridgeShape(lq, sh, R, V, &local);
    LiquidShapeOf(lq, R, V, &fresh);
    ck_assert(s == sh && sh->V == V && sh->R == R && sh->rupture == fresh.rupture && sh->rupture > 0.0);
    for (size_t k = 0; k < sizeof(S) / sizeof(S[0]); k++) {
      ck_assert(LiquidCapillaryForceShaped(lq, s, S[k]) == LiquidCapillaryForce(lq, R, V, S[k]));
      ck_assert(LiquidBridgeForceShaped(lq, s, 0.6e-3, S[k], 0.01) == LiquidBridgeForce(lq, R, 0.6e-3, V, S[k], 0.01));
    }
    sh->rupture = -1.0; /* kept: not formed again */
    ck_assert(BridgeShape(lq, sh, R, V, &local)->rupture == -1.0);
    LiquidShapeOf(lq, R, 2.0 * V, &fresh); /* another volume, then another radius: formed again */
    ck_assert(BridgeShape(lq, sh, R, 2.0 * V, &local)->rupture == fresh.rupture && sh->sv == fresh.sv);
    LiquidShapeOf(lq, 0.5 * R, 2.0 * V, &fresh);
    ck_assert(BridgeShape(lq, sh, 0.5 * R, 2.0 * V, &local)->sv == fresh.sv && sh->f[0] == fresh.f[0]);
    ck_assert(BridgeShape(lq, NULL, R, V, &local) == &local && local.V == V); /* none kept: formed each time */
  }
  PetscCallAbort(PETSC_COMM_SELF, HistorySlotsDestroy(&hs));
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("sidestate");
  TCase *tc = tcase_create("sidestate");
  tcase_add_test(tc, test_fields_tile_states);
  tcase_add_test(tc, test_slots_keep_enabled_states);
  tcase_add_test(tc, test_bridge_shape_kept);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
