"""What the fast subset keeps: ``python -m pytest -m "not slow" -q`` runs in under a minute on two cores.

The full suite (the README's ``python -m pytest -q``, and CI) takes about ten
minutes, most of it in the golden and oracle families parametrised over every
data set in tests/data and over both n-gram matchers. Each such family keeps
one data set in the fast subset, with both matchers, so a quick run still checks
exactness against sacreBLEU's frozen values on real data; its other data sets
are marked ``slow``. Sweeps (every short string, many seeds, every crash point)
keep a representative or two; races of many processes are marked ``slow``.

``slow`` only selects: every test still runs in the full suite.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from pathlib import Path

import pytest

#: The BLEU golden and published-score families' data set in the fast subset:
#: real WMT21 system outputs, short files.
BLEU_SET = "wmt21-bn-hi"
#: The chrF/TER golden family's data set in the fast subset: Japanese, so the
#: TER cases with Asian support are in it too.
CHRF_TER_SET = "wmt22-en-ja"


def slow_except(values: Iterable[object], fast: Collection[object]) -> list[object]:
    """``values`` as ``parametrize`` arguments, each marked ``slow`` unless it is in ``fast``."""
    return [value if value in fast else pytest.param(value, marks=pytest.mark.slow) for value in values]


#: Parametrised families that keep only their first members (in collection order) in the fast
#: subset, with how many stay: the rest repeat the same check on other inputs, and the full suite
#: runs them all. Each of these cost the fast subset 0.5-2.5 s in full.
REPRESENTATIVES: dict[str, int] = {
    "tests/test_hostile_input.py::test_broken_pipe_exits_141": 1,
    "tests/testsets/test_cli.py::test_failures_have_exit_codes_and_one_line": 3,
    "tests/test_multibleu.py::test_same_line_as_the_perl_script": 4,
    "tests/test_json_superset.py::test_json_is_a_superset_of_live_sacrebleu_output": 2,
    "tests/test_chrf.py::test_string_matches_equal_counting": 4,
    "tests/test_chrf_ter_oracle.py::test_chrf_matches_oracle": 8,
    "tests/test_significance_oracle.py::test_matches_live_oracle": 2,
    "tests/test_significance_chrf_ter.py::test_paired_tests_equal_sacrebleu": 3,
    "tests/test_shards.py::test_merged_shards_print_the_single_run": 2,
    "tests/test_shards.py::test_per_segment_shards_run_significance_tests_like_the_single_run": 2,
    "tests/test_ter_normalized.py::test_windows_against_sacrebleu": 2,
    "tests/test_ter_normalized.py::test_windows_every_api_path": 2,
    "tests/test_compiled_tokenizers.py::test_sentence_scores_equal_pure_python": 3,
    "tests/test_compiled_tokenizers.py::test_statistics_equal_pure_python_on_random_segments": 5,
    "tests/test_compiled_matcher.py::test_equals_the_definition_on_repetitive_input": 3,
    "tests/test_oracle_differential.py::test_random_options_equal_oracle": 6,
    "tests/test_reference_data.py::test_every_kind_of_prepared_references_gives_the_same_statistics": 2,
    "tests/test_significance_render.py::test_paired_output_matches_sacrebleu": 2,
    "tests/testsets/test_spm_models.py::test_scores_equal_sacrebleu_with_the_same_model_in_its_cache": 1,
    "tests/test_mecab_tokenizers.py::test_corpus_and_sentence_bleu_and_tokens_equal_sacrebleu": 1,
    "tests/testsets/test_cache_recovery.py::test_damaged_processed_field_is_rebuilt": 2,
    "tests/test_significance_oracle.py::test_chrf_and_ter_match_live_oracle": 1,
    "tests/test_compiled_tokenizers.py::test_references_kept_as_text_score_as_python": 1,
    "tests/test_compare.py::test_highlighted_ngrams_add_up_to_the_clipped_matches": 2,
    "tests/test_significance.py::test_confidence_interval_matches_oracle": 2,
    "tests/test_dropin_cli.py::test_bleu_above_100_matches_sacrebleu": 2,
}

#: Tests that wait on purpose (a stalled server, a deadline, a held lock, a slow download killed
#: midway) or re-run a published figure already checked on frozen values: full suite only.
WAITING_OR_REPEATED: frozenset[str] = frozenset({
    "tests/testsets/test_hostile_cache.py::test_waiting_for_the_cache_lock_is_said_once",
    "tests/testsets/test_download_faults.py::test_stall_ends_within_the_read_timeout",
    "tests/testsets/test_download_faults.py::test_overall_deadline_bounds_a_slow_drip",
    "tests/testsets/test_cache_recovery.py::test_kill_9_during_a_slow_download_then_recover",
    "tests/test_gleu.py::test_published_jfleg_source_scores_with_python2_sampling",
    "tests/test_gleu.py::test_cli_sentence_level",
})


def mark_slow_beyond_representatives(items: list[pytest.Item]) -> None:
    """Mark ``slow`` the members of :data:`REPRESENTATIVES` families past their count, and the
    tests of :data:`WAITING_OR_REPEATED` (called from ``conftest.py`` before ``-m`` selects)."""
    kept: dict[str, int] = {}
    for item in items:
        family = item.nodeid.split("[", 1)[0]
        if family in WAITING_OR_REPEATED:
            item.add_marker(pytest.mark.slow)
        elif family in REPRESENTATIVES and item.get_closest_marker("slow") is None:
            kept[family] = kept.get(family, 0) + 1
            if kept[family] > REPRESENTATIVES[family]:
                item.add_marker(pytest.mark.slow)


def stale_entries(listed: Iterable[str], modules: dict[str, object], roots: Collection[Path],
                  rootpath: Path) -> list[str]:
    """The ids of ``listed`` (``path::function`` or ``path::Class::function``, relative to
    ``rootpath``) that name no test: their file was collected (``modules``: path -> module object)
    and has no such function, or their file is missing although a directory of ``roots`` that
    holds it was collected whole. Ids of files outside the collection are not judged, so running
    one file or one test checks only that file's ids."""
    stale = []
    for entry in sorted(set(listed)):
        path, *names = entry.split("::")
        if path in modules:
            owner: object = modules[path]
            for name in names:
                owner = getattr(owner, name, None)
            if owner is None or not callable(owner):
                stale.append(entry)
        elif not (rootpath / path).is_file() and any((rootpath / path).is_relative_to(root) for root in roots):
            stale.append(entry)
    return stale


def check_listed_tests_exist(config: pytest.Config, items: list[pytest.Item],
                             listed: Iterable[str] | None = None) -> None:
    """Stop the run with a usage error naming every id of :data:`REPRESENTATIVES` and
    :data:`WAITING_OR_REPEATED` (or of ``listed``) that no longer names a test (see
    :func:`stale_entries`): a renamed test would otherwise silently leave, or enter, the fast subset."""
    if listed is None:
        listed = [*REPRESENTATIVES, *WAITING_OR_REPEATED]
    modules = {}
    for item in items:
        module = getattr(item, "module", None)
        if module is not None:
            modules.setdefault(item.nodeid.split("::", 1)[0], module)
    invoked = config.invocation_params.dir
    roots = [(invoked / arg).resolve() for arg in config.args if "::" not in arg and (invoked / arg).is_dir()]
    stale = stale_entries(listed, modules, roots, config.rootpath)
    if stale:
        raise pytest.UsageError("tests/fast_subset.py lists tests that do not exist (renamed or removed?): "
                                + ", ".join(stale))
