#!/usr/bin/python3
"""Write tests/data/oracle_cases.json: reference impacts beyond tests/data/oracle/cases.json,
computed with the same independent oracle (tests/data/oracle/contact_oracle.py).

  - the harmonic law calibrated for the 'force' criterion (hdem's -contact_e with
    -contact_separation force) on every law, speeds 1e-3..10 m/s;
  - the harmonic law on a non-monomial law across speeds and e;
  - tabulated laws (sampled from a polynomial law; hdem interpolates them);
  - exact Tsuji on a power law, the Hunt-Crossley family at other speeds and e;
  - the constant damper calibrated by hdem's own root-finding from e.

Run: /usr/bin/python3 tests/gen_oracle_cases.py (needs python3-scipy and python3-mpmath)
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
M = 1e-5
LAWS = {
    "linear": dict(model="linear", k=1e5),
    "hertz": dict(model="hertz", k=1e9),
    "power_p2": dict(model="power", k=1e13, p=2.0),
    "power_p2.5": dict(model="power", k=1e17, p=2.5),
    "poly23": dict(model="poly23", a=5e4, b=1e10),
    "hertz_plus_linear": dict(model="poly", terms=[[1e9, 1.5], [1e5, 1.0]]),
    "p1.2_plus_p3": dict(model="poly", terms=[[3e6, 1.2], [1e16, 3.0]]),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oracle", default=os.path.join(HERE, "data", "oracle"),
                    help="the folder of contact_oracle.py")
    args = ap.parse_args()
    sys.path.insert(0, args.oracle)
    import contact_oracle as co

    cases = []

    def add(cid, cfg, hdem_damping=None, table=None):
        r = co.simulate(dict(cfg))
        exp = {k: r.get(k) for k in ("e", "t_contact", "q_max", "tensile", "zeta", "c")}
        if cfg.get("damping") == "feng" and r.get("zeta", 0.0) < 1.0:  # the mpmath map needs zeta < 1
            s = co.feng_semianalytic(dict(cfg))
            exp.update(e=s["e"], t_contact=s["t_contact"], q_max=s["q_max"])
        case_cfg = dict(cfg)
        if table:
            case_cfg = dict(model="table", table_file=table, m=cfg["m"], v0=cfg["v0"],
                            criterion=cfg.get("criterion", "overlap"), damping=cfg.get("damping", "none"))
            for k in ("e", "zeta"):
                if k in cfg:
                    case_cfg[k] = cfg[k]
        if hdem_damping:
            case_cfg["hdem_damping"] = hdem_damping
        cases.append({"id": cid, "config": case_cfg, "expected": exp})

    # harmonic, force criterion, calibrated by hdem from e
    for key, law in LAWS.items():
        for v0 in (1e-3, 0.1, 10.0):
            for e in (0.1, 0.5, 0.9):
                z = co.brentq(lambda z: co.e_lsd_force(z) - e, 0.0, 50.0, xtol=1e-15)
                add("harmonic_force_%s_v%g_e%g" % (key, v0, e),
                    dict(law, m=M, v0=v0, damping="feng", zeta=z, criterion="force"),
                    hdem_damping=["-contact_damping", "harmonic", "-contact_e", repr(e)])
    # harmonic, overlap criterion, the non-monomial laws across speeds
    for key in ("hertz_plus_linear", "p1.2_plus_p3"):
        for v0 in (1e-3, 0.1, 10.0):
            for e in (0.1, 0.9):
                add("harmonic_overlap_%s_v%g_e%g" % (key, v0, e),
                    dict(LAWS[key], m=M, v0=v0, damping="feng", e=e, criterion="overlap"))
    # tabulated laws: F sampled from hertz_plus_linear at 400 points on [0, 10 um]
    el = co.make_elastic(LAWS["hertz_plus_linear"])
    table = "table_hertz_plus_linear.txt"
    with open(os.path.join(HERE, "data", table), "w") as f:
        f.write("# overlap [m]  force [N]: F = 1e9 d^1.5 + 1e5 d, sampled for hdem's table law\n")
        for i in range(401):
            d = 1e-5 * i / 400
            f.write("%.17g %.17g\n" % (d, el.F(d)))
    for v0, e, crit in ((1.0, 0.5, "overlap"), (0.1, 0.3, "overlap"), (3.0, 0.9, "overlap")):
        add("table_hertz_plus_linear_v%g_e%g_%s" % (v0, e, crit),
            dict(LAWS["hertz_plus_linear"], m=M, v0=v0, damping="feng", e=e, criterion=crit),
            hdem_damping=["-contact_damping", "harmonic", "-contact_e", repr(e)], table=table)
    z = co.brentq(lambda z: co.e_lsd_force(z) - 0.4, 0.0, 50.0, xtol=1e-15)
    add("table_hertz_plus_linear_v1_e0.4_force",
        dict(LAWS["hertz_plus_linear"], m=M, v0=1.0, damping="feng", zeta=z, criterion="force"),
        hdem_damping=["-contact_damping", "harmonic", "-contact_e", "0.4"], table=table)
    add("table_hertz_plus_linear_elastic_v1", dict(LAWS["hertz_plus_linear"], m=M, v0=1.0),
        hdem_damping=["-contact_damping", "none"], table=table)
    # exact Tsuji on power laws (equal to the harmonic law there)
    for key, e in (("power_p2", 0.5), ("hertz", 0.2)):
        add("tsuji_exact_%s_e%g" % (key, e),
            dict(LAWS[key], m=M, v0=1.0, damping="tsuji", alpha_rule="exact", e=e, criterion="overlap"))
    # Hunt-Crossley family: other e and speeds (speed-independent by construction)
    for var in ("hunt_crossley", "lankarani_nikravesh", "flores", "hu_guo", "gonthier"):
        for v0, e in ((0.01, 0.3), (10.0, 0.8)):
            add("hc_%s_hertz_v%g_e%g" % (var, v0, e),
                dict(LAWS["hertz"], m=M, v0=v0, damping="hc", variant=var, e=e, criterion="overlap"))
    # constant damper, calibrated by hdem from e for F = k d^n
    for key, n in (("linear", 1.0), ("hertz", 1.5), ("power_p2", 2.0)):
        for e in (0.2, 0.6):
            c_hat = co.brentq(lambda c: co.simulate(dict(LAWS[key], m=M, v0=1.0, damping="linear_damper",
                                                        c_hat=c, criterion="force"))["e"] - e, 1e-4, 20.0, xtol=1e-13)
            add("constant_damper_%s_e%g" % (key, e),
                dict(LAWS[key], m=M, v0=0.5, damping="linear_damper", c_hat=c_hat, criterion="force"),
                hdem_damping=["-contact_damping", "constant_damper", "-contact_e", repr(e)])
    out = os.path.join(HERE, "data", "oracle_cases.json")
    with open(out, "w") as f:
        json.dump({"meta": {"generator": "tests/gen_oracle_cases.py with tests/data/oracle/contact_oracle.py",
                            "units": "SI"}, "cases": cases}, f, indent=1)
    print("wrote", out, len(cases), "cases")


if __name__ == "__main__":
    main()
