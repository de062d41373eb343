"""The accuracy section's arithmetic on hand-counted cases, and the confusion
matrix's SVG read back as XML."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

from ethosu_sdk.report import accuracy, confusion_svg

SVG = "{http://www.w3.org/2000/svg}"

# Three samples, ten classes. Sample a: label 2 ranked first; b: label 7
# ranked third (behind 1 and 4); c: label 0 ranked sixth.
SAMPLES = [
    {"label": 2, "scores": [0, 0, 9, 0, 0, 0, 0, 0, 0, 0]},
    {"label": 7, "scores": [0, 8, 0, 0, 7, 0, 0, 5, 0, 0]},
    {"label": 0, "scores": [1, 9, 8, 7, 6, 5, 0, 0, 0, 0]},
]


def _summary(correct: int = 1) -> dict:
    return {
        "source": "eval",
        "samples": 3,
        "classes": 10,
        "stages": {
            "program": {"correct": correct, "samples": 3, "top1": correct / 3},
            "float": {"correct": 2, "samples": 3, "top1": 2 / 3},
        },
        "program_note": None,
        "layers": [
            {"module": "head", "module_type": "Linear", "elements": 30, "sqnr_db": 12.5, "cumulative_sqnr_db": 9.0},
            {"module": "body.1", "module_type": "ReLU", "elements": 90, "sqnr_db": None, "cumulative_sqnr_db": None},
        ],
    }


def test_ranking_ties_go_to_the_lower_class_as_argmax() -> None:
    assert accuracy.ranked([1.0, 3.0, 3.0, 2.0]) == [1, 2, 3, 0]


def test_top_k_counts_labels_among_the_best_k() -> None:
    assert accuracy.top_k(SAMPLES, 1) == 1
    assert accuracy.top_k(SAMPLES, 3) == 2
    assert accuracy.top_k(SAMPLES, 5) == 2
    assert accuracy.top_k(SAMPLES, 6) == 3


def test_confusion_matrix_rows_are_labels_columns_predictions() -> None:
    matrix = accuracy.confusion_matrix(SAMPLES, 10)
    assert matrix[2][2] == 1 and matrix[7][1] == 1 and matrix[0][1] == 1
    assert sum(map(sum, matrix)) == 3


def test_section_orders_stages_as_the_flow_and_finds_source_lines() -> None:
    verification = {
        "partitions": [
            {
                "layers": [
                    {"module": "body.0", "source": "model.py:12"},
                    {"module": "head", "source": "model.py:14"},
                    {"module": None, "source": None},
                ]
            }
        ]
    }
    section = accuracy.section(_summary(), {"samples": SAMPLES}, verification)
    assert [s[0] for s in section.stages] == [accuracy.STAGE_NAMES["float"], accuracy.STAGE_NAMES["program"]]
    assert section.stages[1][1:] == ("33.33%", "1/3", "66.67%")
    assert section.stages[0][3] == ""  # the summary has no float top-5
    # The fused ReLU takes the line of its sibling under the same parent.
    assert [(m, src) for m, _, src, *_ in section.layers] == [
        ("head", "model.py:14"),
        ("body.1", "model.py:12 (as body.0)"),
    ]
    assert section.layers[1][3] == "lossless"
    assert section.confusion is not None and section.confusion[0][1] == 1


def test_scores_of_another_build_are_flagged() -> None:
    section = accuracy.section(_summary(correct=2), {"samples": SAMPLES})
    assert any("different builds" in n for n in section.notes), section.notes


def test_scores_of_another_sample_count_are_left_out() -> None:
    section = accuracy.section(_summary(), {"samples": SAMPLES[:2]})
    assert section.confusion is None and section.stages[1][3] == ""
    assert any("cover 2 samples" in n for n in section.notes), section.notes


def test_cli_lines_name_top5_and_the_worst_layer() -> None:
    lines = accuracy.lines(accuracy.section(_summary(), {"samples": SAMPLES}))
    assert "top-1 33.33% (1/3), top-5 66.67%: " + accuracy.STAGE_NAMES["program"] in lines
    assert any(line.startswith("lowest quantization SQNR: head (Linear) 12.5 dB") for line in lines), lines
    # Labels 7 and 0 both taken for 1 once: the lower label is named.
    assert "most confused (compiled program): label 0 taken for 1 1 time(s)" in lines


def test_svg_holds_every_count_in_its_cell() -> None:
    matrix = [[5, 1, 0], [0, 6, 0], [2, 0, 4]]
    root = ElementTree.fromstring(confusion_svg.render(matrix, "t", ["a", "b", "c"]))
    rects = root.findall(f"{SVG}rect")
    assert len(rects) == 9
    counts = [int(t.text) for t in root.findall(f"{SVG}text") if t.text and t.text.isdigit()]
    assert sorted(counts) == sorted(v for row in matrix for v in row if v)
    # The diagonal cell of a row holding all its samples is the full colour.
    assert rects[4].get("fill") == "#%02x%02x%02x" % confusion_svg.FULL_RGB
    # A miss stands out from the empty cells and from the right answers.
    assert rects[2].get("fill") == "#ffffff"
    assert rects[1].get("fill") not in ("#ffffff", rects[0].get("fill"))
    assert rects[6].get("fill") not in ("#ffffff", rects[0].get("fill"), rects[8].get("fill"))


def test_top5_of_every_stage_comes_from_the_summary() -> None:
    summary = _summary()
    summary["stages"]["float"].update({"top5_correct": 3, "top5": 1.0})
    summary["stages"]["program"].update({"top5_correct": 2, "top5": 2 / 3})
    section = accuracy.section(summary)  # no per-sample scores
    assert [s[3] for s in section.stages] == ["100.00%", "66.67%"]
    assert not any("top-5" in n for n in section.notes), section.notes
    lines = accuracy.lines(section)
    assert "top-1 66.67% (2/3), top-5 100.00%: " + accuracy.STAGE_NAMES["float"] in lines


def test_an_older_summary_without_top5_says_where_it_comes_from() -> None:
    section = accuracy.section(_summary(), {"samples": SAMPLES})
    assert any("top-5 is measured on the compiled program's scores only" in n for n in section.notes)
