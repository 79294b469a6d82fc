/* LAMMPS data files (atom_style sphere): a valid file with skipped sections,
 * image flags and comments; every format error refused, naming path:line;
 * hostile files (counts that would overflow or cannot fit the file, nan and
 * inf, truncation, overlong lines, NUL bytes) refused before anything is
 * allocated for them; CRLF, tabs, comments and a missing last newline
 * accepted; the settle benchmark's 64,000-sphere file (HDEM_SETTLE_DATA,
 * which CTest sets to the one the build makes with bench/peers/settle/
 * gen_settle.py). Runs at 1 or more ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check_main.h"
#include "io/lammps_data.h"
#include "lammps_gather.h"

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

/* Rank 0 writes; every rank reads its share, once the file is there. */
static void WriteBytes(const char *name, const char *bytes, size_t nbytes, char *path, size_t len)
{
  int rank;
  MakeDir();
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  snprintf(path, len, "%s/%s", dir, name);
  if (rank == 0) {
    FILE *fp = fopen(path, "wb");
    ck_assert_ptr_nonnull(fp);
    ck_assert_uint_eq(fwrite(bytes, 1, nbytes, fp), nbytes);
    fclose(fp);
  }
  (void)MPI_Barrier(PETSC_COMM_WORLD);
}

static void WriteFile(const char *name, const char *text, char *path, size_t len)
{
  WriteBytes(name, text, strlen(text), path, len);
}

/* LammpsDataRead, then the whole file's atoms on every rank. */
static PetscErrorCode ReadAll(const char *path, LammpsData *d)
{
  PetscErrorCode ierr = LammpsDataRead(PETSC_COMM_WORLD, path, d);
  if (!ierr) LammpsDataGatherAll(d);
  return ierr;
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
  ck_assert_int_eq(ReadAll(path, &d), 0);
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
            "title\r\n\r\n2 atoms\r\n1 atom types\r\n0 bonds\r\n0 1 xlo xhi\r\n0 1 ylo yhi\r\n0 1 zlo "
            "zhi\r\n\r\nAtoms\r\n\r\n7 1 0.1 2 0.5 0.5 0.5\r\n8 1 0.1 "
            "2 1 1 1\r\n\r\nBonds\r\n\r\n",
            path, sizeof(path));
  ck_assert_int_eq(ReadAll(path, &d), 0);
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

/* Bad files: each edit of valid (from -> to) refused, the message naming the file and where. */
static const struct {
  const char *from, *to, *where; /* where: "line" the message must name, or a phrase */
} error_cases[] = {
  /* 9 columns */
  {"3 1 0.5 2500 1.0 0.0 1.0 0 0 0", "3 1 0.5 2500 1.0 0.0 1.0 0 0", ":17:"},
  /* 6 columns */
  {"10 2 1e-1 3000 10 1 5", "10 2 1e-1 3000 10 1", ":20:"},
  /* Atoms too short: ends at Velocities */
  {"4 atoms", "5 atoms", ":22:"},
  /* Atoms too long */
  {"4 atoms", "3 atoms", ":20:"},
  /* Velocities short by one, at the end */
  {"3 1 1 1 1 1 1\n\nPair Coeffs # granular\n\n1 hooke 1e5\n2 hooke 1e5\n", "", "end of file"},
  /* ... or ended by the next section */
  {"3 1 1 1 1 1 1\n", "", ":28:"},
  /* duplicate id */
  {"2 1 0.25 2500", "1 1 0.25 2500", "first at line 18"},
  /* zero diameter */
  {"1 2 1.0 1000", "1 2 0 1000", ":18:"},
  /* negative density */
  {"1 2 1.0 1000", "1 2 1.0 -1000", ":18:"},
  /* outside the box */
  {"2 1 0.25 2500 3.0 -0.5 3.0", "2 1 0.25 2500 3.0 -1.5 3.0", ":19:"},
  /* outside the box */
  {"10 2 1e-1 3000 10 1 5", "10 2 1e-1 3000 10.5 1 5", ":20:"},
  /* triclinic */
  {"0 5.0e0 zlo zhi", "0 5 zlo zhi\n0 0 0 xy xz yz", ":9:"},
  /* another atom_style */
  {"Atoms # sphere", "Atoms # atomic", ":15:"},
  /* type beyond atom types */
  {"10 2 1e-1", "10 3 1e-1", ":20:"},
  /* non-integer image flag */
  {"1 -1 0 # image", "1 -1 0.5 # image", ":19:"},
  /* velocity of an unknown atom */
  {"10 -1 -2 -3", "11 -1 -2 -3", ":26:"},
  /* two velocities for one atom */
  {"10 -1 -2 -3", "2 -1 -2 -3", ":26:"},
  /* not a number */
  {"1 2 1.0 1000", "1 2 1.0 1e3x", ":18:"},
  /* unknown header line */
  {"2 atom types", "2 atom types\n3 widgets", ":5:"},
  /* unknown section */
  {"Masses", "Nonsense", ":10:"},
  /* missing box line */
  {"-1 1 ylo yhi\n", "", "ylo yhi"},
};

START_TEST(test_errors)
{
  char path[PETSC_MAX_PATH_LEN];
  int  rank, badmsg = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  for (size_t c = 0; c < sizeof(error_cases) / sizeof(error_cases[0]); c++) {
    char          *text = Edit(error_cases[c].from, error_cases[c].to), name[32];
    LammpsData     d;
    PetscErrorCode ierr;
    snprintf(name, sizeof(name), "bad%02d.data", (int)c);
    WriteFile(name, text, path, sizeof(path));
    free(text);
    PetscPushErrorHandler(PetscReturnErrorHandler, NULL);
    ierr = LammpsDataRead(PETSC_COMM_WORLD, path, &d);
    PetscPopErrorHandler();
    ck_assert_msg(ierr != 0, "case %d (%s -> %s) was accepted", (int)c, error_cases[c].from, error_cases[c].to);
    ck_assert_ptr_null(d.x);
    /* only rank 0 has the message: a failed assertion there alone would
     * leave the other ranks in the next case's broadcast, so count and agree */
    if (rank == 0) {
      char *msg = NULL;
      PetscErrorMessage(0, NULL, &msg);
      if (!(msg && strstr(msg, error_cases[c].where) && strstr(msg, path))) {
        fprintf(stderr, "case %d: message '%s' does not name %s and %s\n", (int)c, msg ? msg : "", path,
                error_cases[c].where);
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

/* nbytes of bytes refused by LammpsDataRead, with a message (rank 0's) that
 * names the file and holds want1 and want2 (NULL: nothing); returns 1 (on
 * rank 0) when not, with the details on stderr. */
static int Refused(const char *name, const char *bytes, size_t nbytes, const char *want1, const char *want2)
{
  char           path[PETSC_MAX_PATH_LEN];
  LammpsData     d;
  PetscErrorCode ierr;
  int            rank, bad = 0;

  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  WriteBytes(name, bytes, nbytes, path, sizeof(path));
  PetscPushErrorHandler(PetscReturnErrorHandler, NULL);
  ierr = LammpsDataRead(PETSC_COMM_WORLD, path, &d);
  PetscPopErrorHandler();
  if (!ierr) {
    fprintf(stderr, "%s was accepted\n", name);
    PetscCall(LammpsDataDestroy(&d));
    return 1;
  }
  if (d.x || d.id || d.v || d.n) bad = 1, fprintf(stderr, "%s: refused but the data is not left empty\n", name);
  if (rank == 0) {
    const char *msg = NULL;
    PetscErrorMessage(0, NULL, (char **)&msg);
    if (!(msg && strstr(msg, path) && (!want1 || strstr(msg, want1)) && (!want2 || strstr(msg, want2)))) {
      fprintf(stderr, "%s: message '%s' does not name %s, '%s' and '%s'\n", name, msg ? msg : "", path,
              want1 ? want1 : "", want2 ? want2 : "");
      bad = 1;
    }
  }
  return bad;
}

/* Files without an Atoms section, truncated, with a line too long or a NUL
 * byte: each refused (Refused); the number not. */
static int RefusedBroken(void)
{
  static const char atoms_block[] = "Atoms # sphere\n"
                                    "\n"
                                    "3 1 0.5 2500 1.0 0.0 1.0 0 0 0\n"
                                    "1 2 1.0 1000 2.0 0.5 2.0 # a comment\n"
                                    "2 1 0.25 2500 3.0 -0.5 3.0 1 -1 0 # image flags and a comment\n"
                                    "10 2 1e-1 3000 10 1 5\n"
                                    "   \t\n";
  static const char vel_block[]   = "Velocities\n"
                                    "\n"
                                    "1 0.1 0.2 0.3 0 0 0\n"
                                    "2 0 0 0 1 2 3\n"
                                    "10 -1 -2 -3 0 0 0\n"
                                    "3 1 1 1 1 1 1\n"
                                    "\n";
  int               bad           = 0;

  { /* no Atoms section (and so no Velocities) */
    char       *a  = Edit(atoms_block, ""), *b;
    const char *at = strstr(a, vel_block);
    ck_assert_ptr_nonnull(at);
    b = malloc(strlen(a) + 1);
    memcpy(b, a, (size_t)(at - a));
    strcpy(b + (at - a), at + strlen(vel_block));
    bad += Refused("noatoms.data", b, strlen(b), "without an Atoms section", "announces 4 atoms");
    free(a);
    free(b);
  }
  { /* truncated: at a line end in Atoms, then in the middle of a line */
    size_t cut = (size_t)(strstr(valid, "2 1 0.25 2500") - valid);
    bad += Refused("trunc_line.data", valid, cut, ":18: end of file in section Atoms",
                   "after 2 lines, the header announces 4");
    bad += Refused("trunc_mid.data", valid, cut + 11, ":19:", "found 4 in '2 1 0.25 25'");
    bad += Refused("trunc_header.data", valid, (size_t)(strstr(valid, "-1 1 ylo") - valid), "no 'ylo yhi' line", NULL);
  }
  { /* a line longer than any buffer: 4096 characters is the limit */
    size_t n   = 5000;
    char  *big = malloc(sizeof(valid) + n + 4), *p;
    p          = big;
    p += sprintf(p, "title\n#");
    memset(p, 'x', n), p += n;
    strcpy(p, strchr(valid, '\n'));
    bad += Refused("longline.data", big, strlen(big), ":2: line longer than 4096 characters", "'#xxxx");
    free(big);
  }
  { /* a NUL byte (a binary file) */
    char  *nul = malloc(sizeof(valid));
    size_t at  = (size_t)(strstr(valid, "Masses") - valid);
    memcpy(nul, valid, sizeof(valid));
    nul[at + 3] = 0;
    bad += Refused("nul.data", nul, sizeof(valid) - 1, ":10: NUL byte in column 4", NULL);
    free(nul);
  }
  return bad;
}

/* Hostile edits of valid, each refused with path:line and the offending text quoted. */
static const struct {
  const char *from, *to, *want1, *want2;
} hostile_cases[] = {
  /* counts: overflow of count x record size, beyond 64 bits, beyond what the file can hold */
  {"4 atoms", "2305843009213693962 atoms", ":3:", "'2305843009213693962 atoms'"},
  {"4 atoms", "1000000000000 atoms", ":3:", "more than hdem reads"},
  {"4 atoms", "100000 atoms", ":3:", "cannot be in a file of"},
  {"4 atoms", "99999999999999999999 atoms", ":3:", "beyond 64 bits"},
  {"4 atoms", "-4 atoms", ":3:", "negative count"},
  {"4 atoms", "4.5 atoms", ":3:", "'4.5'"},
  {"2 atom types", "0 atom types", ":4:", "at least one atom type"},
  {"2 atom types", "3000000000 atom types", ":4:", "'3000000000 atom types'"},
  {"2 atom types\n", "2 atom types\n1000000000000 bonds\n", ":5:", "'1000000000000 bonds'"},
  {"2 atom types", "2000000000 atom types", ":10:", "section Masses needs 2000000000 lines"},
  {"Pair Coeffs # granular\n\n1 hooke 1e5\n2 hooke 1e5\n", "PairIJ Coeffs\n\n1 1 hooke 1e5\n",
   "end of file in section PairIJ Coeffs", NULL},
  {"0 10 xlo xhi", "10 xlo xhi", ":6:", "'10 xlo xhi'"},
  {"0 10 xlo xhi", "0 nan xlo xhi", ":6:", "'nan'"},
  {"2 atom types\n", "2 atom types\n3 widgets and gadgets\n", ":5:", "'3 widgets and gadgets'"},
  /* column counts, quoting the line whole */
  {"10 2 1e-1 3000 10 1 5", "10 2 1e-1 3000 10 1 5 0", ":20:", "found 8 in '10 2 1e-1 3000 10 1 5 0'"},
  {"2 0 0 0 1 2 3", "2 0 0 0 1 2", ":25:", "found 6 in '2 0 0 0 1 2'"},
  {"2 0 0 0 1 2 3", "2 0 0 0 1 2 3 4", ":25:", "found 8 in '2 0 0 0 1 2 3 4'"},
  /* non-finite numbers */
  {"1 2 1.0 1000 2.0", "1 2 1.0 1000 nan", ":18:", "x 'nan' is not a finite number"},
  {"1 2 1.0 1000", "1 2 inf 1000", ":18:", "diameter 'inf'"},
  {"1 2 1.0 1000", "1 2 1.0 -inf", ":18:", "density '-inf'"},
  {"1 2 1.0 1000", "1 2 1.0 1e400", ":18:", "density '1e400'"},
  {"1 0.1 0.2 0.3", "1 0.1 1e400 0.3", ":24:", "velocity '1e400'"},
  {"2 0 0 0 1 2 3", "2 0 0 0 1 NaN 3", ":25:", "angular velocity 'NaN'"},
  /* diameters and densities */
  {"1 2 1.0 1000", "1 2 -1.0 1000", ":18:", "diameter '-1.0'"},
  {"1 2 1.0 1000", "1 2 1.0 0", ":18:", "density '0'"},
  {"1 2 1.0 1000", "1 2 1e-400 1000", ":18:", "diameter '1e-400'"},
  /* ids and types */
  {"10 2 1e-1", "0 2 1e-1", ":20:", "atom id '0' is outside"},
  {"10 2 1e-1", "9007199254740993 2 1e-1", ":20:", "'9007199254740993'"},
  {"10 2 1e-1", "-10 2 1e-1", ":20:", "'-10'"},
  {"10 2 1e-1", "1.5 2 1e-1", ":20:", "atom id '1.5' is not an integer"},
  {"10 2 1e-1", "10 0 1e-1", ":20:", "type '0'"},
  {"10 2 1e-1", "10 -1 1e-1", ":20:", "type '-1'"},
  {"10 2 1e-1", "3 2 1e-1", ":20:", "first at line 17"},
  {"10 -1 -2 -3", "0 -1 -2 -3", ":26:", "'0'"},
  /* sections */
  {"Pair Coeffs # granular", "Atoms # sphere\n\n1 1 1 1 1 0 1\n\nPair Coeffs", ":29:", "second Atoms section"},
  {"Atoms # sphere", "Atoms", NULL, NULL},
  {"Atoms # sphere", "Atoms # sphere extra", NULL, NULL},
  {"Masses\n", "Velocities\n\n1 0 0 0 0 0 0\n\nMasses\n", ":10:", "Velocities section before the Atoms section"},
  {"Pair Coeffs # granular", "Pair Coefs", ":29:", "unknown section 'Pair Coefs'"},
};

/* Hostile and broken files: each refused with path:line and the offending
 * text quoted, none crashing or allocating what the file merely claims. */
START_TEST(test_hostile)
{
  char path[PETSC_MAX_PATH_LEN];
  int  rank, bad = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  for (size_t c = 0; c < sizeof(hostile_cases) / sizeof(hostile_cases[0]); c++) {
    char *text = Edit(hostile_cases[c].from, hostile_cases[c].to), name[32];
    snprintf(name, sizeof(name), "hostile%02d.data", (int)c);
    /* these two are fine: the hint is optional, and only its first word counts */
    if (!strcmp(hostile_cases[c].to, "Atoms") || strstr(hostile_cases[c].to, "extra")) {
      LammpsData d;
      WriteFile(name, text, path, sizeof(path));
      EXPECT(ReadAll(path, &d) == 0, "case %d (%s) refused", (int)c, hostile_cases[c].to);
      EXPECT(d.n == 4, "case %d: %d atoms", (int)c, (int)d.n);
      PetscCallVoid(LammpsDataDestroy(&d));
    } else bad += Refused(name, text, strlen(text), hostile_cases[c].want1, hostile_cases[c].want2);
    free(text);
  }
  bad += RefusedBroken();
  bad += Refused("empty.data", "", 0, "empty file", NULL);
  bad += Refused("title.data", "just a title\n", 13, "no 'N atoms' line", NULL);
  bad += Refused("blank.data", "\n\n\n", 3, "no 'N atoms' line", NULL);
  { /* a folder */
    LammpsData     d;
    PetscErrorCode ierr;
    PetscPushErrorHandler(PetscReturnErrorHandler, NULL);
    ierr = LammpsDataRead(PETSC_COMM_WORLD, dir, &d);
    PetscPopErrorHandler();
    EXPECT(ierr != 0, "the folder %s was read as a data file", dir);
  }
  (void)MPI_Bcast(&bad, 1, MPI_INT, 0, PETSC_COMM_WORLD);
  ck_assert_int_eq(bad, 0);
  ASSERT_ALL_RANKS();
}
END_TEST

static void ExpectSameAsValid(const LammpsData *d, const char *what)
{
  EXPECT(d->n == 4 && d->ntypes == 2 && d->has_velocities, "%s: n %d, ntypes %d", what, (int)d->n, (int)d->ntypes);
  if (d->n != 4) return;
  EXPECT(d->id[0] == 3 && d->id[1] == 1 && d->id[2] == 2 && d->id[3] == 10, "%s: ids", what);
  EXPECT(d->diameter[2] == 0.25 && d->density[3] == 3000 && d->x[9] == 10 && d->x[7] == -0.5, "%s: values", what);
  EXPECT(d->v[9] == -1 && d->w[8] == 3 && d->v[0] == 1, "%s: velocities", what);
  EXPECT(d->hi[2] == 5 && d->lo[1] == -1, "%s: box", what);
}

/* What LAMMPS accepts is accepted: CRLF, tabs, comments everywhere, no
 * newline at the end, a line of exactly 4096 characters. */
START_TEST(test_accepted)
{
  char       path[PETSC_MAX_PATH_LEN];
  LammpsData d;
  size_t     n    = strlen(valid);
  char      *crlf = malloc(2 * n + 1), *p = crlf, *tabs;

  for (const char *c = valid; *c; c++) {
    if (*c == '\n') *p++ = '\r';
    *p++ = *c;
  }
  *p = 0;
  WriteFile("crlf.data", crlf, path, sizeof(path));
  EXPECT(ReadAll(path, &d) == 0, "CRLF refused");
  ExpectSameAsValid(&d, "CRLF");
  PetscCallVoid(LammpsDataDestroy(&d));
  /* no newline at the end (of CRLF and of LF) */
  crlf[strlen(crlf) - 2] = 0;
  WriteFile("crlf_noeol.data", crlf, path, sizeof(path));
  EXPECT(ReadAll(path, &d) == 0, "CRLF without the last line end refused");
  ExpectSameAsValid(&d, "CRLF without the last line end");
  PetscCallVoid(LammpsDataDestroy(&d));
  WriteBytes("noeol.data", valid, n - 1, path, sizeof(path));
  EXPECT(ReadAll(path, &d) == 0, "no last line end refused");
  ExpectSameAsValid(&d, "no last line end");
  PetscCallVoid(LammpsDataDestroy(&d));
  free(crlf);
  /* tabs for blanks, a comment after every data line, a comment line of 4096 characters */
  tabs = malloc(2 * n + 4200);
  p    = tabs;
  p += sprintf(p, "title # with a comment\n#");
  memset(p, 'y', 4095), p += 4095;
  for (const char *c = strchr(valid, '\n'); *c; c++) {
    if (*c == '\n' && !strchr(c + 1, '#') && c[1] >= '0' && c[1] <= '9') p += sprintf(p, " #c");
    *p++ = *c == ' ' ? '\t' : *c;
  }
  *p = 0;
  WriteFile("tabs.data", tabs, path, sizeof(path));
  EXPECT(ReadAll(path, &d) == 0, "tabs and comments refused");
  ExpectSameAsValid(&d, "tabs and comments");
  PetscCallVoid(LammpsDataDestroy(&d));
  free(tabs);
  /* the stream entry on every rank alone, on the bytes in memory */
  {
    FILE *fp = fmemopen((void *)valid, n, "r");
    ck_assert_ptr_nonnull(fp);
    EXPECT(LammpsDataParseStream(fp, "valid (memory)", (PetscInt64)n, &d) == 0, "stream refused");
    fclose(fp);
    ExpectSameAsValid(&d, "stream");
    PetscCallVoid(LammpsDataDestroy(&d));
  }
  ASSERT_ALL_RANKS();
}
END_TEST

START_TEST(test_settle)
{
  const char *path = getenv("HDEM_SETTLE_DATA");
  LammpsData  d;
  /* run by hand without the variable: nothing to read; under CTest it is
     always set, and a missing file is then a failure */
  if (!path || !path[0]) return;
  ck_assert_msg(access(path, R_OK) == 0, "HDEM_SETTLE_DATA=%s is not readable", path);
  ck_assert_int_eq(ReadAll(path, &d), 0);
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
  tcase_add_test(tc, test_hostile);
  tcase_add_test(tc, test_accepted);
  tcase_add_test(tc, test_settle);
  tcase_add_test(tc, test_cleanup);
  suite_add_tcase(s, tc);
  return HdemCheckRun(argc, argv, s);
}
