"""The command line: summaries, JSON keys, records, Parquet, and one-line usage errors."""
import json

import pandas as pd
import pytest

from conftest import run_cli
from ccsim.analyses.summary import summarize_frame


@pytest.mark.parametrize("argv, needle", [
    (["run", "--games", "0"], "games"),
    (["run", "--games", "-5"], "games"),
    (["run", "--games", "99999999999999"], "absurd"),
    (["run", "--cleopatra", "nobody"], "unknown strategy 'nobody'"),
    (["run", "--caesar-order", "AAXASSCCRRWVV"], "unknown letter 'X'"),
    (["run", "--cleopatra-order", "AAAAASCCRRWVV"], "needs A=4 S=2"),
    (["run", "--variant", "no_such_variant"], "unknown variant"),
    (["run", "--games", "5", "--record", "/nonexistent-dir/x.jsonl"], "--record"),
    (["run", "--games", "5", "--out", "/proc/forbidden"], "--out"),
    (["run", "--games", "abc"], "not a valid integer"),
    (["replay", "/nonexistent.jsonl"], "cannot read"),
    # every command's own errors reach the one catch of the command group
    (["tournament", "--strategies", "greedy", "--games", "5"], "at least two entrants"),
    (["tournament", "--strategies", "greedy,random", "--games", "0"], "--games"),
    (["whatif", "--rules", "/nonexistent.toml"], "/nonexistent.toml"),
    (["balance", "/nonexistent-space.toml", "--out", "/tmp/x"], "nonexistent-space.toml"),
    (["orderings", "compare", "veto-first", "--delta", "2"], "--delta"),
    (["orderings", "search", "--top", "1000"], "--top"),
    (["report", "/nonexistent-study.toml", "--out", "/tmp/x"], "nonexistent-study.toml"),
    (["play", "--against", "nobody"], "unknown strategy 'nobody'"),
    (["compile", "nobody"], "unknown strategy 'nobody'"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, needle):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("ccsim: error: ")
    assert needle in err
    assert "Traceback" not in err + out


def test_every_error_class_is_one_of_the_family():
    # one error family, caught once; the modules' classes are its two kinds
    import ccsim.runner.backends, ccsim.runner.config, ccsim.play.game, ccsim.runner.orderings, ccsim.play.record, ccsim.report.spec  # noqa: E401
    import ccsim.runner.ruleset, ccsim.analyses.orderings.study, ccsim.analyses.tournament, ccsim.analyses.whatif, strategies.registry  # noqa: E401
    import ccsim.analyses.balance.space, ccsim.training.train, ccsim.training.neural_train, ccsim.runner.changes, ccsim.explore.form  # noqa: E401
    from ccsim.errors import CCSimError, InputError, UsageError
    classes = {ccsim.runner.backends.BackendError, ccsim.runner.config.ConfigError, ccsim.play.game.GameError,
               ccsim.runner.orderings.OrderingError, ccsim.play.record.RecordError, ccsim.report.spec.StudyError,
               ccsim.runner.ruleset.RulesError, ccsim.analyses.orderings.study.OrderingStudyError, ccsim.analyses.tournament.TournamentError,
               ccsim.analyses.whatif.WhatIfError, strategies.registry.ParamFileError,
               ccsim.analyses.balance.space.SpaceError, ccsim.analyses.balance.space.BalanceError,
               ccsim.training.train.TrainError, ccsim.runner.changes.ChangesError,
               ccsim.training.neural_train.TrainNetworkError, ccsim.explore.form.FormError}
    assert all(issubclass(c, UsageError) or issubclass(c, InputError) for c in classes)
    assert len({c.__name__ for c in classes}) == len(classes)  # no two share a name

    def every(c):
        return {c} | {x for s in c.__subclasses__() for x in every(s)}
    assert every(CCSimError) - {CCSimError, UsageError, InputError} == classes


def test_bad_config_file(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("games = [1,\n")
    code, _, err = run_cli(capsys, "run", "--config", str(bad))
    assert code == 2 and "not valid TOML" in err
    unknown = tmp_path / "unknown.toml"
    unknown.write_text("gmaes = 10\n")
    code, _, err = run_cli(capsys, "run", "--config", str(unknown))
    assert code == 2 and "unknown key 'gmaes'" in err


def test_run_json_has_the_promised_keys(capsys, compiled):
    code, out, _ = run_cli(capsys, "run", "--games", "300", "--cleopatra", "greedy", "--caesar", "random", "--json")
    assert code == 0
    d = json.loads(out)
    for key in ("games", "wins", "draws", "truncated", "win_rate", "mean_vp", "mean_turns", "end_reasons",
                "games_per_s"):
        assert key in d
    assert d["games"] == 300
    assert d["wins"]["cleopatra"] + d["wins"]["caesar"] + d["draws"] == 300
    lo, hi = d["win_rate"]["cleopatra"]["ci95"]
    assert lo <= d["win_rate"]["cleopatra"]["rate"] <= hi
    assert sum(d["end_reasons"].values()) == 300
    assert d["engine_errors"] == 0


def test_run_table_is_readable(capsys, compiled):
    code, out, _ = run_cli(capsys, "run", "--games", "200")
    assert code == 0
    assert "win rate" in out and "95% CI" in out and "end reasons" in out


def test_recorded_games_are_the_same_games_and_replay(capsys, tmp_path, compiled):
    path = tmp_path / "g.jsonl"
    code, out, _ = run_cli(capsys, "run", "--games", "40", "--seed", "9", "--json", "--cleopatra", "greedy",
                           "--caesar", "random", "--record", str(path), "--record-games", "6")
    assert code == 0
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(recs) == 6 and [r["game"] for r in recs] == list(range(6))
    from ccsim.analyses.run import simulate
    df = simulate("greedy", "random", games=6, seed=9)
    for r, (_, row) in zip(recs, df.iterrows()):
        assert r["result"]["turns"] == row["turns"]
        assert r["result"]["winner"] == row["winner"]
        assert r["result"]["vp"]["cleopatra"] == row["vp_cleopatra"]
    code, out, _ = run_cli(capsys, "replay", str(path), "--check")
    assert code == 0 and "6 passed, 0 failed" in out
    code, out, _ = run_cli(capsys, "replay", str(path), "--game", "2")
    assert code == 0 and "Turn 1: cleopatra" in out and "VOTE on" in out and "Winner:" in out


def test_swapped_runs_record_both_games_of_each_deal(capsys, tmp_path, compiled):
    path = tmp_path / "g.jsonl"
    code, out, _ = run_cli(capsys, "run", "--games", "20", "--seed", "4", "--cleopatra", "greedy", "--caesar", "random",
                           "--swap-seats", "--record", str(path), "--record-games", "3", "--json")
    assert code == 0 and json.loads(out)["recorded_games"] == 6
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["game"] for r in recs] == [0, 0, 1, 1, 2, 2]
    from ccsim.analyses.run import simulate
    df = simulate("greedy", "random", games=3, seed=4, swap_seats=True)
    for r in recs:
        swapped = "seats swapped" in r["seed"]
        row = df[(df["game"] == r["game"]) & (df["swapped"] == swapped)].iloc[0]
        seated = [r["players"]["cleopatra"]["strategy"], r["players"]["caesar"]["strategy"]]
        assert seated == (["random", "greedy"] if swapped else ["greedy", "random"])
        assert r["result"]["turns"] == row["turns"] and r["result"]["winner"] == row["winner"]
    code, out, _ = run_cli(capsys, "replay", str(path), "--check")
    assert code == 0 and "6 passed, 0 failed" in out


def test_swapped_run_summary_says_deals_and_games(capsys, compiled):
    # --swap-seats --games 20000 plays 40,000 games; the summary says so
    code, out, _ = run_cli(capsys, "run", "--games", "30", "--swap-seats")
    assert code == 0 and "games: 60 (30 deals, each played twice with the seats swapped)" in out
    code, out, _ = run_cli(capsys, "run", "--games", "30")
    assert code == 0 and "games: 30\n" in out


def test_orderings_compare_says_whose_score(capsys, compiled):
    # the table is the ordering's player's score over both seats
    from ccsim.analyses.levels import default_level
    code, out, _ = run_cli(capsys, "orderings", "compare", "veto-first", "--games", "20")
    assert code == 0 and f"score = {default_level()}'s with its deck in each ordering, over both seats" in out
    assert "score [95%]" in out


def test_parquet_reads_back_to_the_printed_summary(capsys, tmp_path, compiled):
    code, out, _ = run_cli(capsys, "run", "--games", "500", "--chunk-size", "128", "--out", str(tmp_path),
                           "--json", "--caesar", "random")
    assert code == 0
    printed = json.loads(out)
    df = pd.read_parquet(tmp_path / "games.parquet")
    assert len(df) == 500 and df["game"].tolist() == list(range(500))
    again = summarize_frame(df)
    for key in ("games", "wins", "draws", "truncated", "win_rate", "mean_vp", "mean_turns", "end_reasons"):
        assert again[key] == printed[key], key
    saved = json.loads((tmp_path / "summary.json").read_text())
    assert saved["wins"] == printed["wins"]


def test_strategies_json(capsys):
    code, out, _ = run_cli(capsys, "strategies", "--json")
    assert code == 0
    items = json.loads(out)
    names = {s["name"] for s in items}
    assert {"random", "greedy"} <= names
    assert all(s["description"] for s in items)
