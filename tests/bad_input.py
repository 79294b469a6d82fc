#!/usr/bin/python3
"""A catalogue of bad decks, bad options and bad data files for `hdem run`, each
checked for: a non-zero exit, a message on stderr naming the key, file or line
(and quoting the value), nothing on stdout, and nothing written (no output
directory).  `hdem check` must refuse every one of them too (it runs every
validation of `run`).  With tests/cli_errors.py (hdem impact), tests/bad_checkpoints.py
and the LAMMPS reader's unit tests, the bad-input catalogue of the project."""
import argparse
import os
import subprocess
import sys
import tempfile

GOOD = """domain:
  lo: [0, 0, 0]
  hi: [0.02, 0.02, 0.04]
gravity: [0, 0, -9.81]
material:
  E: 1.0e7
  nu: 0.3
contact:
  law: hertz
  damping: harmonic
  e: 0.5
insert:
  mode: lattice
  count: 50
  radius: 0.001
steps: 10
output_dir: out
"""

DATA_OK = """test

2 atoms
1 atom types

0 0.02 xlo xhi
0 0.02 ylo yhi
0 0.04 zlo zhi

Atoms # sphere

1 1 0.002 2500 0.005 0.005 0.005
2 1 0.002 2500 0.015 0.015 0.015
"""

# 80 spheres, every one overlapping every other: their union's mass properties cost ~n^4
CLUMP80 = ", ".join("%g" % v for i in range(80)
                    for v in (((i * 7) % 13 - 6) * 4.0e-5, ((i * 11) % 17 - 8) * 3.0e-5, ((i * 5) % 19 - 9) * 3.0e-5, 1.0e-3))

STL = b"solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0.001\nvertex 0.02 0 0.001\nvertex 0 0.02 0.001\nendloop\nendfacet\nendsolid t\n"

FIFO = None  # in a case's files: a named pipe there, which no one writes

LAMMPS = GOOD.replace("  mode: lattice\n  count: 50\n  radius: 0.001\n", "  mode: lammps\n  file: p.data\n")

# (name, deck text, extra args, files {name: bytes}, expected substrings of stderr)
CASES = [
    # deck structure
    ("duplicate key", GOOD + "steps: 20\n", [], {}, ["line 18", "duplicate key 'steps'", "first at line 16"]),
    ("duplicate nested key", GOOD.replace("  e: 0.5\n", "  e: 0.5\n  e: 0.7\n"), [], {}, ["duplicate key 'contact: e'"]),
    ("duplicate flow key", GOOD + "snapshot: {frames: 2, frames: 3}\n", [], {}, ["duplicate key 'snapshot: frames'"]),
    ("second document", GOOD + "---\nsteps: 20\n", [], {}, ["second YAML document"]),
    ("NUL byte", GOOD + "\0contact_e: 5\n", [], {}, ["NUL byte", "line 18"]),
    ("unclosed flow", GOOD + "gravity2: [0, 0\n", [], {}, ["not valid YAML", "deck.yaml line"]),
    ("tab indentation", GOOD + "wall0:\n\tnormal: [0, 0, 1]\n", [], {}, ["not valid YAML"]),
    ("not a mapping", "- steps\n- 10\n", [], {}, ["deck.yaml"]),
    ("missing deck", None, [], {}, ["cannot open deck", "nothing.yaml"]),
    ("empty deck", "", [], {}, ["-steps", "-end_time"]),
    # unknown keys
    ("misspelt key", GOOD + "stepz: 5\n", [], {}, ["unknown key stepz", "did you mean steps?"]),
    ("misspelt nested key", GOOD.replace("  e: 0.5\n", "  ee: 0.5\n"), [], {}, ["unknown key contact_ee", "did you mean contact_e?"]),
    ("misspelt before range error", GOOD + "contact_mu: -1\nsnapshot_frame: 3\n", [], {}, ["snapshot_frame", "did you mean snapshot_frames?"]),
    ("unknown option", GOOD, ["-neighbour_skin", "0.001"], {}, ["unknown key neighbour_skin", "(command line)"]),
    # numbers and ranges
    ("steps overflow", GOOD, ["-steps", "99999999999999999999"], {}, ["-steps", "99999999999999999999", "[0, 9223372036854775807]"]),
    ("steps negative", GOOD, ["-steps", "-1"], {}, ["-steps", "-1"]),
    ("steps fraction", GOOD, ["-steps", "1.5"], {}, ["-steps", "'1.5'", "not an integer"]),
    ("end_time nan", GOOD, ["-end_time", "nan"], {}, ["-end_time", "not a finite number"]),
    ("end_time negative", GOOD, ["-end_time", "-1"], {}, ["-end_time", "-1"]),
    ("thermo interval negative", GOOD, ["-thermo_interval", "-5"], {}, ["-thermo_interval", "-5"]),
    ("thermo time negative", GOOD, ["-thermo_interval_time", "-0.1"], {}, ["-thermo_interval_time"]),
    ("snapshot interval negative", GOOD, ["-snapshot_interval_steps", "-1"], {}, ["-snapshot_interval_steps"]),
    ("snapshot frames huge", GOOD, ["-snapshot_frames", "1e9"], {}, ["-snapshot_frames"]),
    ("checkpoint keep zero", GOOD, ["-checkpoint_keep", "0"], {}, ["-checkpoint_keep", "[1,"]),
    ("progress negative", GOOD, ["-progress_interval", "-1"], {}, ["-progress_interval"]),
    ("skin zero", GOOD, ["-neighbor_skin", "0"], {}, ["-neighbor_skin", "(0, inf)"]),
    ("skin negative", GOOD, ["-neighbor_skin", "-1"], {}, ["-neighbor_skin", "-1"]),
    ("bad boolean", GOOD, ["-domain_walls", "maybe"], {}, ["-domain_walls", "'maybe'", "not a boolean"]),
    ("bad list item", GOOD, ["-domain_lo", "0,0,x"], {}, ["-domain_lo", "'x'"]),
    ("short list", GOOD, ["-gravity", "1,2"], {}, ["-gravity", "3 values", "'1,2'"]),
    ("long list", GOOD, ["-gravity", "1,2,3,4"], {}, ["-gravity", "3 values"]),
    ("bad enum quoted whole", GOOD, ["-contact_law", "hertzian-ish"], {}, ["'hertzian-ish'", "linear, hertz"]),
    ("restitution above 1", GOOD, ["-contact_e", "1.5"], {}, ["-contact_e", "(0, 1]"]),
    ("poisson out of range", GOOD, ["-material_nu", "0.6"], {}, ["-material_nu", "(-1, 0.5]"]),
    ("young zero", GOOD, ["-material_E", "0"], {}, ["-material_E"]),
    ("density negative", GOOD, ["-particle_density", "-2500"], {}, ["-particle_density"]),
    ("density tiny", GOOD, ["-particle_density", "1e-300"], {}, ["-particle_density", "1e-300", "[0.001, 1e+09]"]),
    ("density huge", GOOD, ["-particle_density", "1e300"], {}, ["-particle_density", "1e+300", "[0.001, 1e+09]"]),
    ("material density tiny", GOOD + "material1: {E: 1.0e8, density: 1.0e-300}\n", [], {}, ["-material1_density", "1e-300", "[0.001, 1e+09]"]),
    ("fixed step without dt", GOOD, ["-timestep_mode", "fixed"], {}, ["-timestep_dt"]),
    ("dt without fixed", GOOD, ["-timestep_dt", "1e-6"], {}, ["-timestep_mode fixed"]),
    ("steps per contact zero", GOOD, ["-timestep_steps_per_contact", "0"], {}, ["-timestep_steps_per_contact"]),
    ("stability factor", GOOD, ["-timestep_stability_factor", "2"], {}, ["-timestep_stability_factor", "(0, 1]"]),
    ("no limit", GOOD.replace("steps: 10\n", ""), [], {}, ["-steps", "-end_time"]),
    ("box inverted", GOOD, ["-domain_hi", "0.02,0.02,-0.04"], {}, ["domain"]),
    ("grid negative", GOOD, ["-domain_grid", "-1,1,1"], {}, ["-domain_grid"]),
    ("balance threshold", GOOD, ["-balance_threshold", "0.5"], {}, ["-balance_threshold"]),
    ("wall normal zero", GOOD + "wall0:\n  normal: [0, 0, 0]\n", [], {}, ["wall0_normal"]),
    ("wall normal nan", GOOD + "wall0:\n  normal: [0, 0, .nan]\n", [], {}, ["wall0_normal"]),
    # insertion
    ("insert count missing", GOOD.replace("  count: 50\n", ""), [], {}, ["-insert_count"]),
    ("insert too many", GOOD, ["-insert_count", "100000"], {}, ["-insert_count", "does not fit"]),
    ("radius zero", GOOD, ["-insert_radius", "0"], {}, ["-insert_radius", "[1e-09, 1000]"]),
    ("radius tiny in a random fill", GOOD, ["-insert_mode", "random", "-insert_radius", "1e-300"], {}, ["-insert_radius", "1e-300", "[1e-09, 1000]"]),
    ("radius huge in a random fill", GOOD, ["-insert_mode", "random", "-insert_radius", "1e300"], {}, ["-insert_radius", "1e+300", "[1e-09, 1000]"]),
    ("radius min tiny", GOOD.replace("  radius: 0.001\n", "  radius:\n    min: 1.0e-300\n    max: 0.001\n"), [], {}, ["-insert_radius_min", "1e-300"]),
    ("radius values tiny", GOOD.replace("  radius: 0.001\n", "  radius:\n    distribution: discrete\n    values: [1.0e-300, 0.001]\n"), [], {},
     ["-insert_radius_values", "1e-300", "[1e-09, 1000]"]),
    ("stream radius tiny", GOOD + "stream0: {region_lo: [0, 0, 0.03], region_hi: [0.02, 0.02, 0.04], rate: 100, radius: 1.0e-300}\n", [], {},
     ["-stream0_radius", "1e-300", "[1e-09, 1000]"]),
    ("radius min negative", GOOD.replace("  radius: 0.001\n", "  radius:\n    min: -0.001\n    max: 0.001\n"), [], {}, ["-insert_radius_min"]),
    ("radius and min", GOOD.replace("  radius: 0.001\n", "  radius: 0.001\n  radius_min: 0.0005\n"), [], {}, ["-insert_radius"]),
    ("lattice sites overflow", GOOD, ["-insert_radius", "1.2166422147887686e-09"], {},
     ["-insert_radius", "1.2166422147887686e-09", "lattice sites", "limit 9.2e18"]),
    ("region outside", GOOD, ["-insert_region_hi", "1,1,1"], {}, ["-insert_region"]),
    ("velocity random negative", GOOD, ["-insert_velocity_random", "-1"], {}, ["-insert_velocity_random"]),
    ("velocity huge", GOOD, ["-insert_velocity", "0,0,1e300"], {}, ["-insert_velocity", "1e+300", "[-10000, 10000]"]),
    ("velocity random huge", GOOD, ["-insert_velocity_random", "1e300"], {}, ["-insert_velocity_random", "1e+300", "[0, 10000]"]),
    ("stream velocity huge", GOOD + "stream0: {region_lo: [0, 0, 0.03], region_hi: [0.02, 0.02, 0.04], rate: 100, velocity: [0, 0, -1.0e300]}\n", [], {},
     ["-stream0_velocity", "-1e+300", "[-10000, 10000]"]),
    ("stream velocity random huge", GOOD + "stream0: {region_lo: [0, 0, 0.03], region_hi: [0.02, 0.02, 0.04], rate: 100, velocity_random: 1.0e300}\n", [], {},
     ["-stream0_velocity_random", "1e+300", "[0, 10000]"]),
    # data files
    ("data file missing", LAMMPS, [], {}, ["p.data"]),
    ("data file empty", LAMMPS, [], {"p.data": b""}, ["p.data"]),
    ("data file bad count", LAMMPS, [], {"p.data": DATA_OK.replace("2 atoms", "two atoms").encode()}, ["p.data"]),
    ("data file huge count", LAMMPS, [], {"p.data": DATA_OK.replace("2 atoms", "2305843009213693962 atoms").encode()}, ["p.data"]),
    ("data file short", LAMMPS, [], {"p.data": DATA_OK.replace("2 atoms", "3 atoms").encode()}, ["p.data"]),
    ("data file nan position", LAMMPS, [], {"p.data": DATA_OK.replace("0.015 0.015 0.015", "nan 0.015 0.015").encode()}, ["p.data"]),
    ("data file zero diameter", LAMMPS, [], {"p.data": DATA_OK.replace("1 1 0.002 2500", "1 1 0 2500").encode()}, ["p.data"]),
    ("data file duplicate id", LAMMPS, [], {"p.data": DATA_OK.replace("2 1 0.002 2500 0.015", "1 1 0.002 2500 0.015").encode()}, ["p.data"]),
    ("data file overlap", LAMMPS, [], {"p.data": DATA_OK.replace("0.015 0.015 0.015", "0.0065 0.005 0.005").encode()}, ["particles 1 and 2", "insert_overlap_max"]),
    ("data file density tiny", LAMMPS, [], {"p.data": DATA_OK.replace("2 1 0.002 2500", "2 1 0.002 1e-300").encode()},
     ["p.data:13", "density '1e-300'", "[0.001, 1e+09]"]),
    ("data file density huge", LAMMPS, [], {"p.data": DATA_OK.replace("2 1 0.002 2500", "2 1 0.002 1e300").encode()},
     ["p.data:13", "density '1e300'", "[0.001, 1e+09]"]),
    ("data file diameter tiny", LAMMPS, [], {"p.data": DATA_OK.replace("2 1 0.002 2500", "2 1 1e-300 2500").encode()},
     ["p.data:13", "diameter '1e-300'", "[2e-09, 2000]"]),
    ("data file diameter huge", LAMMPS, [], {"p.data": DATA_OK.replace("2 1 0.002 2500", "2 1 1e300 2500").encode()},
     ["p.data:13", "diameter '1e300'", "[2e-09, 2000]"]),
    ("data file outside box", LAMMPS, [], {"p.data": DATA_OK.replace("0.015 0.015 0.015", "0.015 0.015 0.5").encode()}, ["p.data"]),
    # run control files
    ("restart missing", GOOD, ["-restart", "nothing.h5"], {}, ["nothing.h5"]),
    ("restart latest none", GOOD, ["-restart", "latest"], {}, ["-restart latest", "no checkpoint"]),
    ("restart not hdf5", GOOD, ["-restart", "p.data"], {"p.data": DATA_OK.encode()}, ["p.data"]),
    ("output dir a file", GOOD, ["-output_dir", "p.data/out"], {"p.data": DATA_OK.encode()}, ["-output_dir", "p.data/out"]),
    ("output dir not creatable", GOOD, ["-output_dir", "/proc/hdem_out"], {}, ["-output_dir", "/proc/hdem_out", "cannot create"]),
    ("output dir empty", GOOD, ["-output_dir", ""], {}, ["-output_dir", "is empty"]),
    ("checkpoints folder a file", GOOD, ["-output_dir", "o"], {"o/checkpoints": b"x"}, ["o/checkpoints", "Not a directory"]),
    ("snapshots folder a file", GOOD, ["-output_dir", "o"], {"o/snapshots": b"x"}, ["o/snapshots", "Not a directory"]),
    ("output dir too long", GOOD, ["-output_dir", "o/" + "d" * 4090], {}, ["-output_dir"]),
    ("snapshot field unknown", GOOD, ["-snapshot_fields", "position,colour"], {}, ["colour"]),
    ("table file missing", GOOD, ["-contact_law", "table", "-contact_table_file", "law.txt"], {}, ["law.txt"]),
    ("table file NUL", GOOD, ["-contact_law", "table", "-contact_table_file", "law.txt"], {"law.txt": b"0 0\n1e-6 1\0\n2e-6 3\n"}, ["law.txt:2", "NUL"]),
    ("table file long line", GOOD, ["-contact_law", "table", "-contact_table_file", "law.txt"], {"law.txt": b"0 0\n1e-6 " + b"1" * 5000 + b"\n"},
     ["law.txt:2", "longer than"]),
    ("table file not numbers", GOOD, ["-contact_law", "table", "-contact_table_file", "law.txt"], {"law.txt": b"0 0\n1e-6 one\n"}, ["law.txt:2", "two finite numbers"]),
    # materials and pairs
    ("pair of an undefined type", GOOD + "material1: {E: 1.0e8}\npair_1_3: {e: 0.3}\n", [], {}, ["pair_1_3", "type 3 has no material", "material3"]),
    ("pair given twice", GOOD + "material1: {E: 1.0e8}\nmaterial2: {E: 1.0e8}\npair_1_2: {e: 0.3}\npair_2_1: {mu: 0.1}\n", [], {},
     ["pair_1_2", "pair_2_1", "give one"]),
    ("rigid particles", GOOD + "material1: {E: .inf}\n", [], {}, ["material1_E", "rigid", "type 1"]),
    ("negative liquid", GOOD + "material1: {E: 1.0e8, liquid: -1.0e-12}\n", [], {}, ["-material1_liquid", "-1e-12", "[0, inf"]),
    ("negative default liquid", GOOD, ["-material_liquid", "-1e-12"], {}, ["-material_liquid", "-1e-12"]),
    ("contact angle 90", GOOD, ["-contact_liquid_contact_angle", "90"], {}, ["-contact_liquid_contact_angle", "90", "[0, 90)"]),
    ("contact angle negative", GOOD, ["-contact_liquid_contact_angle", "-5"], {}, ["-contact_liquid_contact_angle", "-5"]),
    ("bridge fraction zero", GOOD, ["-contact_liquid_bridge_fraction", "0"], {}, ["-contact_liquid_bridge_fraction", "(0, 1]"]),
    ("liquid force unknown", GOOD, ["-contact_liquid_force", "rabinovich"], {}, ["-contact_liquid_force", "'rabinovich'", "willett"]),
    ("material nu out of range", GOOD + "material4: {nu: 0.6}\n", [], {}, ["-material4_nu", "0.6", "(-1, 0.5]"]),
    ("material type above 15", GOOD + "material16: {E: 1.0e8}\n", [], {}, ["unknown key material16_E"]),
    ("pair restitution zero", GOOD + "material1: {E: 1.0e8}\npair_1_1: {e: 0}\n", [], {}, ["-pair_1_1_e", "(0, 1]"]),
    ("vibrate at 0 Hz", GOOD + "wall0: {normal: [0, 0, 1], motion: vibrate, amplitude: [0, 0, 1.0e-3]}\n", [], {},
     ["-wall0_frequency", "= 0", "vibrate", "(0, inf)"]),
    ("fill through a mesh", GOOD, ["-mesh0_file", "m.stl"], {"m.stl": STL.replace(b"0.001", b"0.0005")}, ["mesh0 (m.stl)", "insert_overlap_max"]),
    ("mesh overlap names the mesh", GOOD, ["-mesh0_file", "m.stl"], {"m.stl": STL}, ["mesh0 (m.stl)", "overlaps"]),
    ("mesh vibrate at 0 Hz", GOOD, ["-mesh0_file", "m.stl", "-mesh0_motion", "vibrate", "-mesh0_frequency", "0"], {"m.stl": STL},
     ["-mesh0_frequency", "vibrate"]),
    ("mesh outside the domain", GOOD, ["-mesh0_file", "m.stl", "-mesh0_translate", "0,0,1"], {"m.stl": STL},
     ["-mesh0_file", "m.stl", "wholly outside the domain", "1.001"]),
    ("wall velocity huge", GOOD + "wall0: {normal: [0, 0, 1], motion: translate, velocity: [0, 0, 1.0e300]}\n", [], {},
     ["-wall0_velocity", "1e+300", "[-10000, 10000]"]),
    ("wall spin huge", GOOD + "wall0: {normal: [0, 0, 1], motion: rotate, angular_velocity: 1.0e300}\n", [], {},
     ["-wall0_angular_velocity", "1e+300", "[-1e+08, 1e+08]"]),
    ("wall belt huge", GOOD + "wall0: {normal: [0, 0, 1], surface_velocity: [1.0e300, 0, 0]}\n", [], {},
     ["-wall0_surface_velocity", "1e+300", "[-10000, 10000]"]),
    ("wall vibration too fast", GOOD + "wall0: {normal: [0, 0, 1], motion: vibrate, amplitude: [0, 0, 1.0e-3], frequency: 1.0e300}\n",
     [], {}, ["-wall0_frequency", "1e+300 Hz", "-wall0_amplitude", "10000 m/s"]),
    ("mesh spin huge", GOOD, ["-mesh0_file", "m.stl", "-mesh0_motion", "rotate", "-mesh0_angular_velocity", "-1e300"],
     {"m.stl": STL.replace(b"0.001", b"-0.001")}, ["-mesh0_angular_velocity", "-1e+300", "[-1e+08, 1e+08]"]),
    ("body spin huge", GOOD, ["-insert_angular_velocity", "0,0,1e300"], {}, ["-insert_angular_velocity", "1e+300", "[-1e+08, 1e+08]"]),
    ("stream spin huge", GOOD + "stream0: {region_lo: [0, 0, 0.03], region_hi: [0.02, 0.02, 0.04], rate: 100, angular_velocity: [1.0e300, 0, 0]}\n",
     [], {}, ["-stream0_angular_velocity", "1e+300", "[-1e+08, 1e+08]"]),
    ("wall type negative", GOOD + "wall0: {normal: [0, 0, 1], type: -1}\n", [], {}, ["-wall0_type", "-1"]),
    # multi-sphere templates
    ("clump without spheres", GOOD + "clump0: {density: 2500}\n", [], {}, ["-clump0_density", "given without", "-clump0_spheres or -clump0_file"]),
    ("clump number count", GOOD + "clump0: {spheres: [0, 0, 0, 1.0e-3, 1.0e-3, 0, 0]}\n", [], {}, ["-clump0_spheres", "7 numbers", "multiple of 4"]),
    ("clump negative radius", GOOD + "clump2: {spheres: [0, 0, 0, 1.0e-3, 1.0e-3, 0, 0, -1.0e-3]}\n", [], {},
     ["-clump2_spheres", "sphere 2", "radius -0.001", "(0, inf)"]),
    ("clump file not numbers", GOOD + "clump0: {file: c.txt}\n", [], {"c.txt": b"0 0 0 1e-3\n1e-3 0 x 1e-3\n"}, ["c.txt:2", "not a number"]),
    ("clump file empty", GOOD + "clump0: {file: c.txt}\n", [], {"c.txt": b"# nothing\n"}, ["-clump0_file", "no spheres"]),
    ("clump mass alone", GOOD + "clump0: {spheres: [0, 0, 0, 1.0e-3], mass: 1.0e-5}\n", [], {}, ["clump0_mass", "clump0_inertia", "together"]),
    ("body of no template", GOOD + "clump0: {spheres: [0, 0, 0, 1.0e-3, 1.2e-3, 0, 0, 1.0e-3]}\n", ["-insert_body", "clump0,clump3"], {},
     ["-insert_body", "clump3", "does not define"]),
    ("body misnamed", GOOD, ["-insert_body", "sphere,clumpy"], {}, ["-insert_body", "clumpy", "sphere nor clump0"]),
    ("body weights count", GOOD + "clump0: {spheres: [0, 0, 0, 1.0e-3, 1.2e-3, 0, 0, 1.0e-3]}\n", ["-insert_body", "sphere,clump0", "-insert_body_weights", "1,2,3"],
     {}, ["-insert_body_weights", "3 weights", "2 bodies"]),
    ("body orientation", GOOD, ["-insert_orientation", "sideways"], {}, ["-insert_orientation", "sideways"]),
    ("bodies from a data file without molecules", GOOD + "clump0: {spheres: [0, 0, 0, 1.0e-3, 1.2e-3, 0, 0, 1.0e-3]}\n",
     ["-insert_mode", "lammps", "-insert_file", "d.data", "-insert_body", "clump0"], {"d.data": DATA_OK.encode()}, ["-insert_body", "d.data", "Molecules"]),
    ("molecule not the template", GOOD + "clump0: {spheres: [0, 0, 0, 1.0e-3, 1.2e-3, 0, 0, 1.0e-3]}\n",
     ["-insert_mode", "lammps", "-insert_file", "d.data", "-insert_body", "clump0"], {"d.data": (DATA_OK + "\nMolecules\n\n1 7\n2 7\n").encode()},
     ["molecule 7", "d.data", "not the body clump0"]),
    ("molecule of three atoms", GOOD + "clump0: {spheres: [0, 0, 0, 1.0e-3, 1.2e-3, 0, 0, 1.0e-3]}\n",
     ["-insert_mode", "lammps", "-insert_file", "d.data", "-insert_body", "clump0"],
     {"d.data": DATA_OK.replace("2 atoms", "3 atoms").replace("0.015 0.015 0.015\n", "0.015 0.015 0.015\n3 1 0.002 2500 0.01 0.01 0.01\n").encode() + b"\nMolecules\n\n1 4\n2 4\n3 4\n"},
     ["molecule 4", "3 atoms", "clump0 has 2 spheres"]),
    ("clump too costly", GOOD + "clump0: {spheres: [%s]}\n" % CLUMP80, [], {}, ["-clump0_spheres", "80 spheres", "overlap", "more than the limit"]),
    # inputs that are not regular files: refused at once, not read forever
    ("deck a FIFO", GOOD, [], {"deck.yaml": FIFO}, ["deck", "deck.yaml", "FIFO", "not a regular file"]),
    ("layered deck a FIFO", GOOD, ["-options_file_yaml", "more.yaml"], {"more.yaml": FIFO}, ["more.yaml", "FIFO", "-options_file_yaml"]),
    ("data file a FIFO", LAMMPS, [], {"p.data": FIFO}, ["-insert_file", "p.data", "FIFO"]),
    ("data file a device", LAMMPS, ["-insert_file", "/dev/null"], {}, ["-insert_file", "/dev/null", "character device"]),
    ("STL a FIFO", GOOD, ["-mesh0_file", "m.stl"], {"m.stl": FIFO}, ["-mesh0_file", "m.stl", "FIFO"]),
    ("clump file a FIFO", GOOD + "clump0: {file: c.txt}\n", [], {"c.txt": FIFO}, ["-clump0_file", "c.txt", "FIFO"]),
    ("table file a FIFO", GOOD, ["-contact_law", "table", "-contact_table_file", "law.txt"], {"law.txt": FIFO}, ["-contact_table_file", "law.txt", "FIFO"]),
    ("restart a FIFO", GOOD, ["-restart", "r.h5"], {"r.h5": FIFO}, ["-restart", "r.h5", "FIFO"]),
    ("clump spheres and file", GOOD + "clump0: {spheres: [0, 0, 0, 1.0e-3], file: c.txt}\n", [], {"c.txt": b"0 0 0 1e-3\n"}, ["clump0_spheres", "clump0_file", "not both"]),
    ("clump density tiny", GOOD + "clump0: {spheres: [0, 0, 0, 1.0e-3, 1.2e-3, 0, 0, 1.0e-3], density: 1.0e-300}\n", [], {}, ["-clump0_density", "1e-300", "[0.001, 1e+09]"]),
    ("clump density huge", GOOD + "clump0: {spheres: [0, 0, 0, 1.0e-3, 1.2e-3, 0, 0, 1.0e-3], density: 1.0e300}\n", [], {}, ["-clump0_density", "1e+300", "1e+09"]),
    ("clump mass tiny", GOOD + "clump0: {spheres: [0, 0, 0, 1.0e-3, 1.2e-3, 0, 0, 1.0e-3], mass: 1.0e-300, inertia: [1.0e-300, 1.0e-300, 1.0e-300]}\n", [], {},
     ["-clump0_mass", "1e-300", "density", "[0.001, 1e+09]"]),
    ("clump inertia huge", GOOD + "clump0: {spheres: [0, 0, 0, 1.0e-3, 1.2e-3, 0, 0, 1.0e-3], mass: 1.6e-5, inertia: [1.0e300, 2.0e-11, 2.0e-11]}\n", [], {}, ["-clump0_inertia", "1e+300", "extent"]),
    ("clump spheres on one centre", GOOD + "clump0: {spheres: [0, 0, 0, 1.0e-3, 1.0e-16, 0, 0, 0.5e-3]}\n", [], {},
     ["-clump0_spheres", "spheres 1 and 2", "same centre"]),
    ("clump file spheres on one centre", GOOD + "clump0: {file: c.txt}\n", [], {"c.txt": b"0 0 0 1e-3\n# two\n1e-3 0 0 1e-3\n0 0 0 1e-3\n"},
     ["-clump0_file", "c.txt", "spheres 1 and 3", "same centre"]),
    # keys that do nothing where they are given
    ("wall spin without rotate", GOOD + "wall0: {normal: [0, 0, 1], angular_velocity: 2}\n", [], {},
     ["-wall0_angular_velocity", "does nothing", "-wall0_motion rotate", "is none"]),
    ("wall spin with translate", GOOD + "wall0: {normal: [0, 0, 1], motion: translate, velocity: [0, 0, 0.1], angular_velocity: 2}\n", [], {},
     ["-wall0_angular_velocity", "does nothing", "is translate"]),
    ("mesh velocity without translate", GOOD, ["-mesh0_file", "m.stl", "-mesh0_velocity", "0,0,1"], {"m.stl": STL},
     ["-mesh0_velocity", "does nothing", "-mesh0_motion translate"]),
    ("liquid viscosity of a dry run", GOOD, ["-contact_liquid_viscosity", "1e-3"], {}, ["-contact_liquid_viscosity", "does nothing", "no material has liquid"]),
    ("liquid force of a dry run", GOOD + "contact_liquid_force: willett_simple\n", [], {}, ["-contact_liquid_force", "no material has liquid"]),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hdem", required=True)
    a = ap.parse_args()
    hdem = os.path.abspath(a.hdem)
    fails = []
    for name, deck, args, files, want in CASES:
        for cmd in ("run", "check"):
            work = tempfile.mkdtemp(prefix="hdem_bad_")
            path = os.path.join(work, "deck.yaml") if deck is not None else os.path.join(work, "nothing.yaml")
            if deck is not None:
                with open(path, "w") as f:
                    f.write(deck)
            for fn, data in files.items():
                if data is FIFO:
                    if os.path.exists(os.path.join(work, fn)):
                        os.remove(os.path.join(work, fn))
                    os.mkfifo(os.path.join(work, fn))
                    continue
                os.makedirs(os.path.dirname(os.path.join(work, fn)), exist_ok=True)
                with open(os.path.join(work, fn), "wb") as f:
                    f.write(data)
            before = set(os.listdir(work))
            try:
                p = subprocess.run([hdem, cmd, path] + args, cwd=work, capture_output=True, timeout=120)
            except subprocess.TimeoutExpired:  # a hang is a failure of its own, not the end of the catalogue
                p = subprocess.CompletedProcess([], 0, b"", b"timed out after 120 s")
            err = p.stderr.decode(errors="replace")
            out = p.stdout.decode(errors="replace")
            after = set(os.listdir(work))
            problems = []
            if p.returncode == 0:
                problems.append("exit 0")
            missing = [w for w in want if w not in err]
            if missing:
                problems.append("stderr lacks %s" % missing)
            if out:
                problems.append("stdout not empty: %r" % out[:200])
            if after != before:
                problems.append("wrote %s" % sorted(after - before))
            print("%s %-5s %s%s" % ("FAIL" if problems else "ok  ", cmd, name, (": " + "; ".join(problems) + " | " + err.strip()[-300:]) if problems else ""))
            if problems:
                fails.append("%s %s" % (cmd, name))
            subprocess.run(["rm", "-rf", work])
    # a deck with a valid template: hdem check reports it
    work = tempfile.mkdtemp(prefix="hdem_bad_")
    path = os.path.join(work, "deck.yaml")
    with open(path, "w") as f:
        f.write(GOOD + "clump0: {spheres: [0, 0, 0, 1.0e-3, 1.2e-3, 0, 0, 1.0e-3]}\n")
    p = subprocess.run([hdem, "check", path], cwd=work, capture_output=True, timeout=120)
    if p.returncode != 0 or "clump0" not in p.stdout.decode() or "2 spheres" not in p.stdout.decode():
        fails.append("check of a template: exit %d, %s" % (p.returncode, p.stdout.decode()[-300:] + p.stderr.decode()[-300:]))
    subprocess.run(["rm", "-rf", work])
    # help and parsing agree: a key whose range help shows reaching "inf]" takes inf
    work = tempfile.mkdtemp(prefix="hdem_bad_")
    path = os.path.join(work, "deck.yaml")
    with open(path, "w") as f:
        f.write(GOOD)
    helptext = subprocess.run([hdem, "run", "-help"], cwd=work, capture_output=True, timeout=120).stdout.decode()
    infkeys = [ln.split()[0] for ln in helptext.splitlines() if ln.startswith("  -") and ln.rstrip().endswith("inf]")]
    for key in infkeys:
        p = subprocess.run([hdem, "check", path, key, "inf"], cwd=work, capture_output=True, timeout=120)
        err = p.stderr.decode(errors="replace")
        if "not a finite number" in err or "out of range" in err:
            fails.append("help shows %s reaching inf], but it refuses inf: %s" % (key, err.strip()[-200:]))
            print("FAIL help/parse %s: %s" % (key, err.strip()[-200:]))
    if not infkeys:
        fails.append("hdem run -help shows no key reaching inf] (material0_E, the stop and remove times)")
    subprocess.run(["rm", "-rf", work])
    print("%d cases, %d failed" % (2 * len(CASES) + 2, len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
