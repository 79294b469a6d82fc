/* LAMMPS data files (atom_style sphere): a valid file with skipped sections,
 * image flags and comments; every format error refused, naming path:line;
 * the shared settle benchmark file when present. Runs at 1 or more ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check_main.h"
#include "io/lammps_data.h"

static char dir[64];

/* Rank 0 makes one unique directory, the others learn its name. */
static void MakeDir(void)
{
  int rank;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  if (dir[0]) return;
  if (rank == 0) {
    strcpy(dir, "/tmp/hdem_lammps_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
  }
  (void)MPI_Bcast(dir, sizeof(dir), MPI_CHAR, 0, PETSC_COMM_WORLD);
}

/* Only rank 0 reads, so only rank 0 writes. */
static void WriteFile(const char *name, const char *text, char *path, size_t len)
{
  int rank;
  MakeDir();
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  snprintf(path, len, "%s/%s", dir, name);
  if (rank == 0) {
    FILE *fp = fopen(path, "w");
    ck_assert_ptr_nonnull(fp);
    fputs(text, fp);
    fclose(fp);
  }
}

static const char valid[] = "LAMMPS data file via write_data, version 29 Sep 2021, timestep = 0\n"
                            "\n"
                            "4 atoms\n"
                            "2 atom types\n"
                            "\n"
                            "0 10 xlo xhi\n"
                            "-1 1 ylo yhi\n"
                            "0 5.0e0 zlo zhi # comment after the box\n"
                            "\n"
                            "Masses\n"
                            "\n"
                            "1 1.0\n"
                            "2 2.0\n"
                            "\n"
                            "Atoms # sphere\n"
                            "\n"
                            "3 1 0.5 2500 1.0 0.0 1.0 0 0 0\n"
                            "1 2 1.0 1000 2.0 0.5 2.0 # a comment\n"
                            "2 1 0.25 2500 3.0 -0.5 3.0 1 -1 0 # image flags and a comment\n"
                            "10 2 1e-1 3000 10 1 5\n"
                            "   \t\n"
                            "Velocities\n"
                            "\n"
                            "1 0.1 0.2 0.3 0 0 0\n"
                            "2 0 0 0 1 2 3\n"
                            "10 -1 -2 -3 0 0 0\n"
                            "3 1 1 1 1 1 1\n"
                            "\n"
                            "Pair Coeffs # granular\n"
                            "\n"
                            "1 hooke 1e5\n"
                            "2 hooke 1e5\n";

START_TEST(test_valid)
{
  char       path[PETSC_MAX_PATH_LEN];
  LammpsData d;
  WriteFile("valid.data", valid, path, sizeof(path));
  ck_assert_int_eq(LammpsDataRead(PETSC_COMM_WORLD, path, &d), 0);
  ck_assert_int_eq(d.n, 4);
  ck_assert_int_eq(d.ntypes, 2);
  ck_assert(d.has_velocities);
  ck_assert(d.lo[0] == 0 && d.hi[0] == 10 && d.lo[1] == -1 && d.hi[1] == 1 && d.lo[2] == 0 && d.hi[2] == 5);
  /* file order is kept */
  ck_assert(d.id[0] == 3 && d.id[1] == 1 && d.id[2] == 2 && d.id[3] == 10);
  ck_assert(d.type[0] == 1 && d.type[1] == 2 && d.type[3] == 2);
  ck_assert(d.diameter[0] == 0.5 && d.diameter[2] == 0.25 && d.diameter[3] == 0.1);
  ck_assert(d.density[1] == 1000 && d.density[3] == 3000);
  ck_assert(d.x[3] == 2.0 && d.x[4] == 0.5 && d.x[5] == 2.0 && d.x[7] == -0.5 && d.x[9] == 10);
  /* velocities go to atoms by id, not by line */
  ck_assert(d.v[3] == 0.1 && d.v[4] == 0.2 && d.v[5] == 0.3 && d.w[3] == 0);
  ck_assert(d.w[6] == 1 && d.w[7] == 2 && d.w[8] == 3);
  ck_assert(d.v[9] == -1 && d.v[0] == 1 && d.w[2] == 1);
  ck_assert_int_eq(LammpsDataDestroy(&d), 0);
  ck_assert_ptr_null(d.x);
}
END_TEST

/* Without Velocities, and with CRLF line ends and an unrelated Bonds section. */
START_TEST(test_no_velocities)
{
  char       path[PETSC_MAX_PATH_LEN];
  LammpsData d;
  WriteFile("novel.data",
            "title\r\n\r\n2 atoms\r\n1 atom types\r\n0 bonds\r\n0 1 xlo xhi\r\n0 1 ylo yhi\r\n0 1 zlo zhi\r\n\r\nAtoms\r\n\r\n7 1 0.1 2 0.5 0.5 0.5\r\n8 1 0.1 "
            "2 1 1 1\r\n\r\nBonds\r\n\r\n",
            path, sizeof(path));
  ck_assert_int_eq(LammpsDataRead(PETSC_COMM_WORLD, path, &d), 0);
  ck_assert_int_eq(d.n, 2);
  ck_assert(!d.has_velocities);
  ck_assert(d.id[1] == 8 && d.x[3] == 1.0);
  for (int i = 0; i < 6; i++) ck_assert(d.v[i] == 0 && d.w[i] == 0);
  ck_assert_int_eq(LammpsDataDestroy(&d), 0);
}
END_TEST

/* valid[] with one substring replaced */
static char *Edit(const char *from, const char *to)
{
  const char *at = strstr(valid, from);
  char       *s;
  ck_assert_ptr_nonnull(at);
  s = malloc(sizeof(valid) + strlen(to));
  memcpy(s, valid, (size_t)(at - valid));
  strcpy(s + (at - valid), to);
  strcat(s, at + strlen(from));
  return s;
}

START_TEST(test_errors)
{
  static const struct {
    const char *from, *to, *where; /* where: "line" the message must name, or a phrase */
  } cases[] = {
    {"3 1 0.5 2500 1.0 0.0 1.0 0 0 0", "3 1 0.5 2500 1.0 0.0 1.0 0 0", ":17:"},                   /* 9 columns */
    {"10 2 1e-1 3000 10 1 5", "10 2 1e-1 3000 10 1", ":20:"},                                     /* 6 columns */
    {"4 atoms", "5 atoms", ":22:"},                                                               /* Atoms too short: ends at Velocities */
    {"4 atoms", "3 atoms", ":20:"},                                                               /* Atoms too long */
    {"3 1 1 1 1 1 1\n\nPair Coeffs # granular\n\n1 hooke 1e5\n2 hooke 1e5\n", "", "end of file"}, /* Velocities short by one, at the end */
    {"3 1 1 1 1 1 1\n", "", ":28:"},                                                              /* ... or ended by the next section */
    {"2 1 0.25 2500", "1 1 0.25 2500", "first at line 18"},                                       /* duplicate id */
    {"1 2 1.0 1000", "1 2 0 1000", ":18:"},                                                       /* zero diameter */
    {"1 2 1.0 1000", "1 2 1.0 -1000", ":18:"},                                                    /* negative density */
    {"2 1 0.25 2500 3.0 -0.5 3.0", "2 1 0.25 2500 3.0 -1.5 3.0", ":19:"},                         /* outside the box */
    {"10 2 1e-1 3000 10 1 5", "10 2 1e-1 3000 10.5 1 5", ":20:"},                                 /* outside the box */
    {"0 5.0e0 zlo zhi", "0 5 zlo zhi\n0 0 0 xy xz yz", ":9:"},                                    /* triclinic */
    {"Atoms # sphere", "Atoms # atomic", ":15:"},                                                 /* another atom_style */
    {"10 2 1e-1", "10 3 1e-1", ":20:"},                                                           /* type beyond atom types */
    {"1 -1 0 # image", "1 -1 0.5 # image", ":19:"},                                               /* non-integer image flag */
    {"10 -1 -2 -3", "11 -1 -2 -3", ":26:"},                                                       /* velocity of an unknown atom */
    {"10 -1 -2 -3", "2 -1 -2 -3", ":26:"},                                                        /* two velocities for one atom */
    {"1 2 1.0 1000", "1 2 1.0 1e3x", ":18:"},                                                     /* not a number */
    {"2 atom types", "2 atom types\n3 widgets", ":5:"},                                           /* unknown header line */
    {"Masses", "Nonsense", ":10:"},                                                               /* unknown section */
    {"-1 1 ylo yhi\n", "", "ylo yhi"},                                                            /* missing box line */
  };
  char path[PETSC_MAX_PATH_LEN];
  int  rank, badmsg = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    char          *text = Edit(cases[c].from, cases[c].to), name[32];
    LammpsData     d;
    PetscErrorCode ierr;
    snprintf(name, sizeof(name), "bad%02d.data", (int)c);
    WriteFile(name, text, path, sizeof(path));
    free(text);
    PetscPushErrorHandler(PetscReturnErrorHandler, NULL);
    ierr = LammpsDataRead(PETSC_COMM_WORLD, path, &d);
    PetscPopErrorHandler();
    ck_assert_msg(ierr != 0, "case %d (%s -> %s) was accepted", (int)c, cases[c].from, cases[c].to);
    ck_assert_ptr_null(d.x);
    /* only rank 0 has the message: a failed assertion there alone would
     * leave the other ranks in the next case's broadcast, so count and agree */
    if (rank == 0) {
      char *msg = NULL;
      PetscErrorMessage(0, NULL, &msg);
      if (!(msg && strstr(msg, cases[c].where) && strstr(msg, path))) {
        fprintf(stderr, "case %d: message '%s' does not name %s and %s\n", (int)c, msg ? msg : "", path, cases[c].where);
        badmsg++;
      }
    }
  }
  (void)MPI_Bcast(&badmsg, 1, MPI_INT, 0, PETSC_COMM_WORLD);
  ck_assert_int_eq(badmsg, 0);
  {
    LammpsData     d;
    PetscErrorCode ierr;
    snprintf(path, sizeof(path), "%s/no_such_file.data", dir);
    PetscPushErrorHandler(PetscReturnErrorHandler, NULL);
    ierr = LammpsDataRead(PETSC_COMM_WORLD, path, &d);
    PetscPopErrorHandler();
    ck_assert(ierr != 0);
  }
}
END_TEST

START_TEST(test_settle)
{
  const char *path = "/work/shared/peers/settle/data.settle";
  LammpsData  d;
  int         present = access(path, R_OK) == 0;
  (void)MPI_Bcast(&present, 1, MPI_INT, 0, PETSC_COMM_WORLD);
  if (!present) return;
  ck_assert_int_eq(LammpsDataRead(PETSC_COMM_WORLD, path, &d), 0);
  ck_assert_int_eq(d.n, 64000);
  ck_assert(d.has_velocities);
  ck_assert(d.id[0] == 1 && d.id[63999] == 64000);
  ck_assert(d.diameter[0] == 0.002 && d.density[0] == 2500);
  ck_assert(d.x[0] == 0.00105 && d.x[2] == 0.0011);
  ck_assert(d.v[3 * 63999 + 0] == -0.045452 && d.v[3 * 63999 + 2] == 0.006785);
  ck_assert(d.hi[0] == 0.084 && d.hi[2] == 0.1051);
  ck_assert_int_eq(LammpsDataDestroy(&d), 0);
}
END_TEST

/* Leave /tmp as found. */
static void RemoveDir(void)
{
  int rank;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  if (rank == 0 && dir[0]) {
    char cmd[PETSC_MAX_PATH_LEN + 16];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
  }
}

START_TEST(test_cleanup)
{
  RemoveDir();
}
END_TEST

int main(int argc, char **argv)
{
  Suite *s  = suite_create("lammps_data");
  TCase *tc = tcase_create("read");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_valid);
  tcase_add_test(tc, test_no_velocities);
  tcase_add_test(tc, test_errors);
  tcase_add_test(tc, test_settle);
  tcase_add_test(tc, test_cleanup);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
