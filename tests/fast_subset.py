"""What the fast subset keeps: ``python -m pytest -m "not slow" -q`` runs in under a minute on two cores.

The full suite (the README's ``python -m pytest -q``, and CI) takes about ten
minutes, most of it in the golden and oracle families parametrised over every
data set in tests/data and over both n-gram matchers. Each such family keeps
one data set in the fast subset, with both matchers, so a quick run still checks
exactness against sacreBLEU's frozen values on real data; its other data sets
are marked ``slow``. Sweeps (every short string, many seeds, every crash point)
keep a representative or two; races of many processes are marked ``slow``, and
so are the costliest remaining tests (:data:`COSTLY`).

``slow`` only selects: every test still runs in the full suite. Every id listed
here must name a test: a stale one stops the run with a usage error naming it
(:func:`check_listed_tests_exist`, for the files a run collects).
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
    # resampling units: equality for every mode with both matchers, and the real set's wider intervals
    "tests/test_resample_unit.py::test_one_segment_per_document_equals_segment_resampling": 2,
    "tests/test_resample_unit.py::test_documents_widen_the_intervals_on_a_real_set": 1,
    "tests/test_ngram_match.py::test_several_references_equal_counting": 4,
    "tests/testsets/test_run_modes.py::test_fields_that_differ_still_fail": 3,
    "tests/test_pairwise.py::test_every_cell_equals_bleucli_sentence_score": 3,
    "tests/test_google_bleu.py::test_equals_frozen_nltk": 3,
    "tests/testsets/test_download_faults.py::test_transient_status_is_retried": 2,
    "tests/test_multibleu.py::test_an_empty_reference_file_is_exit_3_in_one_line": 1,
    "tests/test_sacrebleu_paths.py::test_paired_test_is_sacrebleus": 1,
    "tests/testsets/test_cli.py::test_t_scoring_equals_scoring_the_files": 2,
    "tests/test_bounded_files.py::test_deeply_nested_aligned_jsonl_is_exit_3_with_file_and_line": 1,
    "tests/test_compare.py::test_compare_scores_and_judges_the_metric_of_m": 1,
    "tests/test_chrf_ter_oracle.py::test_chrf_matches_oracle": 8,
    "tests/test_significance_chrf_ter.py::test_paired_tests_equal_sacrebleu": 3,
    "tests/test_ter_normalized.py::test_windows_every_api_path": 2,
    "tests/test_compiled_tokenizers.py::test_sentence_scores_equal_pure_python": 3,
    "tests/test_compiled_tokenizers.py::test_statistics_equal_pure_python_on_random_segments": 5,
    "tests/test_oracle_differential.py::test_random_options_equal_oracle": 4,
    "tests/test_reference_data.py::test_every_kind_of_prepared_references_gives_the_same_statistics": 2,
    "tests/test_mecab_tokenizers.py::test_corpus_and_sentence_bleu_and_tokens_equal_sacrebleu": 1,
    "tests/testsets/test_cache_recovery.py::test_damaged_processed_field_is_rebuilt": 2,
    "tests/test_significance.py::test_confidence_interval_matches_oracle": 2,
    "tests/test_nltk_bleu.py::test_live_random_corpora_match_nltk": 3,
    "tests/test_ngram_match.py::test_single_reference_paths_equal_counting": 4,
    "tests/test_ngram_match.py::test_character_matches_equal_counting": 5,
    "tests/test_hostile_input.py::test_endless_input_is_exit_3_in_flat_memory": 3,
    "tests/test_dropin_cli.py::test_sacrebleu_format_is_honoured_where_bleucli_format_is_unset": 3,
    "tests/test_sacrebleu_paths.py::test_argparse_spellings": 1,
    "tests/test_progress_engine.py::test_a_paired_test_counts_each_matrix_of_resamples_and_gives_the_same_p_values": 3,
    "tests/test_progress_engine.py::test_ranking_counts_each_matrix_and_ranks_the_same": 2,
    "tests/test_progress_engine.py::test_sentence_scores_count_every_segment_as_consumed_and_score_the_same": 2,
    "tests/test_progress_engine.py::test_a_confidence_interval_counts_its_segments_and_each_metric": 1,
}

#: Tests that wait on purpose (a stalled server, a deadline, a held lock, a slow download killed
#: midway), re-run a published figure already checked on frozen values, or repeat at a cost of
#: seconds a check the subset makes elsewhere (both matchers on real lines: the golden families;
#: the GLEU command: test_cli_one_reference), or hold a pipe open on 40,000 lines: full suite only.
WAITING_OR_REPEATED: frozenset[str] = frozenset({
    "tests/testsets/test_hostile_cache.py::test_waiting_for_the_cache_lock_is_said_once",
    "tests/testsets/test_download_faults.py::test_stall_ends_within_the_read_timeout",
    "tests/testsets/test_download_faults.py::test_overall_deadline_bounds_a_slow_drip",
    "tests/testsets/test_cache_recovery.py::test_kill_9_during_a_slow_download_then_recover",
    "tests/test_gleu.py::test_published_jfleg_source_scores_with_python2_sampling",
    "tests/test_gleu.py::test_cli_sentence_level",
    "tests/test_gleu.py::test_cli",
    "tests/test_compiled_matcher.py::test_equals_the_python_matchers_on_real_lines",
    "tests/test_cli_subprocess.py::test_broken_pipe_exits_quietly",
})


#: The costliest tests left after the two lists above (0.4 s or more per family on two cores with
#: one other job running, ``--durations=0``; together over half of the subset's time): full suite
#: only, so that the subset stays under a minute. The subset keeps the checks of the coverage idea
#: above: the golden BLEU, chrF/TER, published-score and NLTK families on their data set with
#: both matchers, the C tokenizers against pure Python, the golden compare report.
COSTLY: frozenset[str] = frozenset({
    "tests/test_resample_unit.py::test_compare_resamples_documents_as_the_scoring_command",
    "tests/test_resample_unit.py::test_document_resampling_in_a_real_process",
    "tests/test_segment_scores.py::test_compare_takes_segment_scores",
    "tests/test_compiled_matcher.py::test_every_token_limit_is_checked_at_its_boundary",
    "tests/test_fast_subset.py::test_a_stale_id_stops_the_run_naming_it",
    "tests/test_compiled_tokenizers.py::test_zh_ranges_are_the_python_ones_on_every_code_point",
    "tests/testsets/test_detail.py::test_detail_breaks_the_score_down_by_origlang_and_subset",
    "tests/testsets/test_hostile_cache.py::test_connection_refused_is_not_retried",
    "tests/test_dropin_cli.py::test_lines_with_a_different_number_of_tabs_fail_naming_stdin_and_the_line",
    "tests/test_compare.py::test_word_f_measure_cis_come_from_the_pbs_resamples",
    "tests/testsets/test_registry.py::test_shipped_registry_is_valid_and_complete",
    "tests/test_compare.py::test_a_length_buckets_ci_is_what_ci_prints_for_the_buckets_lines",
    "tests/test_hostile_input.py::test_language_pair_with_reference_files_must_be_src_tgt",
    "tests/test_dropin_cli.py::test_sacrebleu_format_is_honoured_where_bleucli_format_is_unset",
    "tests/testsets/test_hostile_cache.py::test_full_disk_during_download_is_not_retried",
    "tests/testsets/test_hostile_cache.py::test_cache_path_too_long_is_a_cache_error",
    "tests/test_compare.py::test_sentence_bleu_bins_count_the_sl_scores_with_cis_over_the_pbs_resamples",
    "tests/test_compare.py::test_approximate_randomization_p_values_equal_par",
    "tests/test_shard_fuzz.py::test_merge_of_a_device_or_fifo_ends_at_once_with_exit_3",
    "tests/test_compare.py::test_bad_input_gives_one_line_errors_with_documented_codes",
    "tests/test_compare.py::test_sentence_bleu_equals_sentence_level_mode",
    "tests/test_compare.py::test_every_pick_in_the_page_data_has_an_element",
    "tests/test_hostile_input.py::test_endless_input_is_exit_3_in_flat_memory",
    "tests/testsets/test_spm_models.py::test_crash_after_the_verified_download_leaves_nothing_under_the_final_name",
    "tests/test_compare.py::test_ngram_lists_count_the_matches_bleu_counted",
    "tests/testsets/test_spm_models.py::test_first_download_pins_the_sha256_and_later_loads_are_held_to_it",
    "tests/test_dropin_cli.py::test_help_is_an_overview_of_usages_grouped_options_commands_and_exit_codes",
    "tests/test_hostile_input.py::test_size_limited_output_is_exit_74",
    "tests/test_compare.py::test_markdown_summary_is_the_default_output",
    "tests/test_bounded_files.py::test_spm_model_must_be_a_regular_file_within_the_cap",
    "tests/test_parallel_files.py::test_rows_and_sentences_of_workers_reading_files_equal_one_process",
    "tests/test_compiled_matcher.py::test_a_lower_build_limit_is_the_one_reported",
    "tests/test_gleu.py::test_cli_one_reference",
    "tests/test_conformance.py::test_the_alias_imports_bleucli_under_the_upstream_name",
    "tests/test_significance_render.py::test_paired_json_is_sacrebleus_plus_signatures",
    "tests/test_gleu.py::test_sentence_level_equals_frozen_gleu_py_sent",
    "tests/test_mteval_rules.py::test_intl_every_short_string",
    "tests/testsets/test_hostile_cache.py::test_citation_of_a_set_without_one_is_a_warning_with_exit_0",
    "tests/test_compare.py::test_length_buckets_score_summed_statistics",
    "tests/test_hostile_input.py::test_sentence_level_prints_nothing_when_a_later_segment_fails",
    "tests/testsets/test_hostile_cache.py::test_unresolvable_host_fails_at_once_without_retries",
    "tests/testsets/test_hostile_cache.py::test_disk_full_in_the_cache_is_not_an_output_error",
    "tests/test_ter_normalized.py::test_windows_every_api_path",
    "tests/testsets/test_progress_bar.py::test_no_bar_when_stderr_is_not_a_terminal",
    "tests/test_bleu_family.py::test_which_bleu_every_row_from_its_own_definition",
    "tests/test_chrf.py::test_string_matches_equal_counting",
    "tests/test_chrf_ter_oracle.py::test_ter_edit_distance_matches_oracle_on_synthetic_pairs",
    "tests/test_chrf_ter_oracle.py::test_ter_matches_oracle",
    "tests/test_compare.py::test_corpus_scores_cis_and_p_values_equal_the_scoring_command",
    "tests/test_compare.py::test_highlighted_ngrams_add_up_to_the_clipped_matches",
    "tests/test_compare.py::test_pairwise_matrix_is_each_pairs_own_test",
    "tests/test_compare.py::test_the_bootstrap_deltas_are_the_ones_pbs_reads_its_p_value_from",
    "tests/test_compiled_matcher.py::test_equals_the_definition_on_repetitive_input",
    "tests/test_compiled_matcher.py::test_prepared_references_equal_the_definition_for_every_hypothesis",
    "tests/test_compiled_tokenizers.py::test_on_random_text",
    "tests/test_compiled_tokenizers.py::test_references_kept_as_text_score_as_python",
    "tests/test_dropin_cli.py::test_bleu_above_100_matches_sacrebleu",
    "tests/test_dropin_cli.py::test_options_before_a_command_apply_to_it",
    "tests/test_dropin_cli.py::test_stdin_columns_match_sacrebleu",
    "tests/test_dropin_cli.py::test_terminal_colours_match_sacrebleu",
    "tests/test_gleu.py::test_equals_frozen_gleu_py_run",
    "tests/test_google_bleu.py::test_random_ties_and_empty_sentences_equal_live_nltk",
    "tests/test_hostile_input.py::test_broken_pipe_exits_141",
    "tests/test_hostile_input.py::test_dev_full_is_one_line_exit_74",
    "tests/test_hostile_input.py::test_max_line_bytes_raises_the_limit",
    "tests/test_hostile_input.py::test_ter_long_segment_is_refused_with_file_and_line",
    "tests/test_json_superset.py::test_json_is_a_superset_of_live_sacrebleu_output",
    "tests/test_mecab_tokenizers.py::test_reference_tokens_equal_sacrebleu",
    "tests/test_mecab_tokenizers.py::test_sacrebleu_table_mecab_rows_reproduce",
    "tests/test_mteval_rules.py::test_intl_every_short_string_with_inner_whitespace",
    "tests/test_multibleu.py::test_same_line_as_the_perl_script",
    "tests/test_nltk_bleu.py::test_live_ted_sys2_against_nltk",
    "tests/test_nltk_bleu.py::test_nltk_own_smoothing_methods_work_in_bleucli",
    "tests/test_nltk_bleu.py::test_pure_python_counting_gives_the_same_floats",
    "tests/test_pairwise.py::test_aggregate_equals_its_definition",
    "tests/test_pairwise.py::test_every_cell_equals_sacrebleu_sentence_score",
    "tests/test_parallel_files.py::test_byte_cut_parts_equal_one_process",
    "tests/test_ref_length.py::test_four_decimals_of_mteval",
    "tests/test_self_bleu.py::test_sacrebleu_style_equals_sacrebleu_sentence_score_loop",
    "tests/test_self_bleu.py::test_texygen_anchor_figures_of_the_issue",
    "tests/test_self_bleu.py::test_texygen_equals_frozen_texygen_run",
    "tests/test_shards.py::test_merged_shards_print_the_single_run",
    "tests/test_shards.py::test_per_segment_shards_run_significance_tests_like_the_single_run",
    "tests/test_significance.py::test_results_do_not_depend_on_jobs",
    "tests/test_significance.py::test_wmt21_three_refs_paired_ar",
    "tests/test_significance_oracle.py::test_chrf_and_ter_match_live_oracle",
    "tests/test_significance_oracle.py::test_matches_live_oracle",
    "tests/test_significance_render.py::test_paired_output_matches_sacrebleu",
    "tests/test_statistics.py::test_ter_with_three_references_equals_the_live_oracle",
    "tests/test_statistics.py::test_ter_with_three_references_is_sacrebleus_float_on_every_path",
    "tests/test_streaming.py::test_parallel_scores_are_identical",
    "tests/test_ter_normalized.py::test_short_strings_against_sacrebleu",
    "tests/test_ter_normalized.py::test_windows_against_sacrebleu",
    "tests/testsets/test_cache_recovery.py::test_crash_at_each_step_then_recover",
    "tests/testsets/test_cli.py::test_failures_have_exit_codes_and_one_line",
    "tests/testsets/test_cli.py::test_hostile_archive_and_bad_registry_exit_6",
    "tests/testsets/test_cli.py::test_pipe_echo_translate_score",
    "tests/testsets/test_compare_testsets.py::test_compare_on_a_test_set_equals_compare_on_its_files",
    "tests/testsets/test_compare_testsets.py::test_docids_file_with_reference_files",
    "tests/testsets/test_hostile_cache.py::test_a_damaged_sacrebleu_copy_is_not_used",
    "tests/testsets/test_hostile_cache.py::test_cache_remove_takes_the_names_verify_gives",
    "tests/testsets/test_hostile_cache.py::test_failed_download_leaves_nothing_to_list_or_verify",
    "tests/testsets/test_hostile_cache.py::test_offline_a_damaged_own_copy_is_replaced_from_the_sacrebleu_cache",
    "tests/testsets/test_hostile_cache.py::test_remove_on_read_only_cache_names_path_and_operation",
    "tests/testsets/test_hostile_cache.py::test_retries_are_announced_on_a_non_tty_stderr",
    "tests/testsets/test_hostile_cache.py::test_sacrebleu_cache_is_used_without_network",
    "tests/testsets/test_hostile_xml.py::test_entity_declarations_in_wmt_xml_are_refused",
    "tests/testsets/test_run_modes.py::test_a_sacrebleu_signature_checks_a_test_set_run",
    "tests/testsets/test_run_modes.py::test_every_mode_checks_the_test_set_fields",
    "tests/testsets/test_run_modes.py::test_every_mode_prints_the_test_set_fields",
    "tests/testsets/test_sacrebleu_parity.py::test_fields_echo_and_references_match_sacrebleu",
    "tests/testsets/test_sacrebleu_parity.py::test_golden_file_is_current",
    "tests/testsets/test_spm_models.py::test_kill_9_during_the_model_download_leaves_nothing_under_the_final_name",
    "tests/testsets/test_spm_models.py::test_scores_equal_sacrebleu_with_the_same_model_in_its_cache",
})


def mark_slow_beyond_representatives(items: list[pytest.Item]) -> None:
    """Mark ``slow`` the members of :data:`REPRESENTATIVES` families past their count, and the
    tests of :data:`WAITING_OR_REPEATED` and :data:`COSTLY` (called from ``conftest.py`` before
    ``-m`` selects)."""
    kept: dict[str, int] = {}
    for item in items:
        family = item.nodeid.split("[", 1)[0]
        if family in WAITING_OR_REPEATED or family in COSTLY:
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
    :data:`WAITING_OR_REPEATED` and :data:`COSTLY` (or of ``listed``) that no longer names a test (see
    :func:`stale_entries`): a renamed test would otherwise silently leave, or enter, the fast subset."""
    if listed is None:
        listed = [*REPRESENTATIVES, *WAITING_OR_REPEATED, *COSTLY]
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
