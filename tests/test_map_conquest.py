"""The Conquest reader on small files, one quirk of real files at a time (../shared/spec/map-formats.md §2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.maps import Finding, FindingCode, Severity, check_map_file
from shared.maps.conquest import read_conquest
from shared.maps.loader import MapReport

ISLANDS = """\
[Map]
author=Test Author
image=islands.bmp
wrap=no
scroll=none
warn=yes

[Continents]
North Isles=3
South Isles=2

[Territories]
Alpha Point,10,20,North Isles,Beta Bay,Gamma Rock
Beta Bay,30,40,North Isles,Alpha Point,Gamma Rock

Gamma Rock,50,60,South Isles,Alpha Point,Beta Bay
"""
# Line numbers: [Territories] is line 12; Alpha 13, Beta 14, Gamma 16.


def write(
    tmp_path: Path,
    text: str,
    *,
    name: str = "islands.map",
    encoding: str = "utf-8",
    newline: str = "\n",
    prefix: bytes = b"",
) -> Path:
    path = tmp_path / name
    path.write_bytes(prefix + text.replace("\n", newline).encode(encoding))
    return path


def check(
    tmp_path: Path,
    text: str,
    *,
    name: str = "islands.map",
    encoding: str = "utf-8",
    newline: str = "\n",
    prefix: bytes = b"",
) -> MapReport:
    report = check_map_file(write(tmp_path, text, name=name, encoding=encoding, newline=newline, prefix=prefix))
    assert report.format == "conquest"
    return report


def codes(findings: list[Finding]) -> set[tuple[Severity, FindingCode]]:
    return {(f.severity, f.code) for f in findings}


def only(findings: list[Finding], code: FindingCode) -> Finding:
    found = [f for f in findings if f.code is code]
    assert len(found) == 1, [str(f) for f in findings]
    return found[0]


def test_a_well_formed_map_reads_into_the_model(tmp_path: Path) -> None:
    report = check(tmp_path, ISLANDS)
    assert report.findings == []
    game_map = report.game_map
    assert game_map is not None
    assert game_map.name == "islands"  # Conquest maps carry no name: the file's
    assert game_map.description == "by Test Author"
    assert game_map.names == ("Alpha Point", "Beta Bay", "Gamma Rock")
    assert [(c.name, c.bonus) for c in game_map.continents] == [("North Isles", 3), ("South Isles", 2)]
    assert [(t.continent, t.x, t.y) for t in game_map.territories] == [
        ("North Isles", 10, 20),
        ("North Isles", 30, 40),
        ("South Isles", 50, 60),
    ]
    assert game_map.neighbours("Gamma Rock") == {"Alpha Point", "Beta Bay"}


def test_read_conquest_leaves_the_name_to_the_caller() -> None:
    game_map, findings = read_conquest(ISLANDS.encode())
    assert findings == []
    assert game_map is not None and game_map.name == ""


def test_names_match_ignoring_case_with_a_warning_per_spelling(tmp_path: Path) -> None:
    text = ISLANDS.replace("Beta Bay,30,40,North Isles,Alpha Point,", "Beta Bay,30,40,north isles,alpha point,")
    text = text.replace(
        "Gamma Rock,50,60,South Isles,Alpha Point,Beta Bay", "Gamma Rock,50,60,South Isles,alpha point,beta bay"
    )
    report = check(tmp_path, text)
    assert report.playable
    game_map = report.game_map
    assert game_map is not None
    assert game_map.territory("Beta Bay").continent == "North Isles"
    assert game_map.neighbours("Gamma Rock") == {"Alpha Point", "Beta Bay"}
    mismatches = sorted((f.line, f.message) for f in report.findings if f.code is FindingCode.CASE_MISMATCH)
    assert all(f.severity is Severity.WARNING for f in report.findings)
    assert len(mismatches) == 3  # "north isles", "alpha point" (twice, one finding), "beta bay"
    assert mismatches[0][0] == 14
    assert any('"alpha point" (and on 1 more line(s)) is defined as "Alpha Point"' in m for _, m in mismatches)


def test_trailing_commas_and_spaces_around_commas_are_allowed(tmp_path: Path) -> None:
    text = ISLANDS.replace(
        "Alpha Point,10,20,North Isles,Beta Bay,Gamma Rock", "Alpha Point, 10 ,20,North Isles, Beta Bay,Gamma Rock,,"
    )
    report = check(tmp_path, text)
    assert report.findings == []
    assert report.game_map is not None and report.game_map.neighbours("Alpha Point") == {"Beta Bay", "Gamma Rock"}


def test_the_map_section_is_optional_and_its_header_may_be_lower_case(tmp_path: Path) -> None:
    without = ISLANDS.split("[Continents]", 1)[1]
    assert check(tmp_path, "[Continents]" + without).findings == []
    assert check(tmp_path, ISLANDS.replace("[Map]", "[map]")).findings == []


def test_comment_lines_are_skipped(tmp_path: Path) -> None:
    report = check(tmp_path, "; made by hand\n" + ISLANDS.replace("[Territories]\n", "[Territories]\n;x,1,2\n"))
    assert report.findings == []


@pytest.mark.parametrize("newline", ["\r\n", "\r", "\n"], ids=["CRLF", "CR", "LF"])
def test_any_line_end_gives_the_same_map_and_line_numbers(tmp_path: Path, newline: str) -> None:
    report = check(tmp_path, ISLANDS.replace("Gamma Rock,50,60,", "Gamma Rock,50,,"), newline=newline)
    assert report.game_map is not None and len(report.game_map.territories) == 3
    finding = only(report.findings, FindingCode.PARSE)
    assert (finding.line, finding.territories) == (16, ("Gamma Rock",))


def test_a_utf8_bom_is_dropped(tmp_path: Path) -> None:
    report = check(tmp_path, ISLANDS.replace("Alpha Point", "Zürich"), prefix=b"\xef\xbb\xbf")
    assert report.playable and report.game_map is not None and report.game_map.names[0] == "Zürich"


def test_latin1_files_read_as_latin1(tmp_path: Path) -> None:
    report = check(tmp_path, ISLANDS.replace("Alpha Point", "Bienentanz Süd"), encoding="latin-1")
    assert report.playable and report.game_map is not None and report.game_map.names[0] == "Bienentanz Süd"


def test_trailing_spaces_are_ignored(tmp_path: Path) -> None:
    report = check(tmp_path, "\n".join(line + "  " for line in ISLANDS.split("\n")))
    assert report.findings == []


def test_duplicate_neighbours_are_collapsed_with_a_warning(tmp_path: Path) -> None:
    report = check(
        tmp_path,
        ISLANDS.replace(
            "Beta Bay,30,40,North Isles,Alpha Point,Gamma Rock",
            "Beta Bay,30,40,North Isles,Alpha Point,Gamma Rock,alpha point",
        ),
    )
    assert report.playable
    finding = only(report.findings, FindingCode.DUPLICATE_BORDER)
    assert (finding.severity, finding.line, finding.territories) == (Severity.WARNING, 14, ("Beta Bay", "Alpha Point"))
    assert report.game_map is not None and report.game_map.neighbours("Beta Bay") == {"Alpha Point", "Gamma Rock"}


def test_a_one_way_link_stays_one_way(tmp_path: Path) -> None:
    report = check(
        tmp_path,
        ISLANDS.replace(
            "Gamma Rock,50,60,South Isles,Alpha Point,Beta Bay", "Gamma Rock,50,60,South Isles,Alpha Point"
        ),
    )
    assert report.playable
    game_map = report.game_map
    assert game_map is not None
    assert "Gamma Rock" in game_map.neighbours("Beta Bay") and "Beta Bay" not in game_map.neighbours("Gamma Rock")
    assert codes(report.findings) == {(Severity.WARNING, FindingCode.ONE_WAY_BORDER)}


@pytest.mark.parametrize(
    ("coordinates", "words"),
    [("50,", "no y position"), (",60", "no x position"), ("fifty,60", '"fifty" as its x position')],
)
def test_a_missing_or_bad_coordinate_is_a_parse_error(tmp_path: Path, coordinates: str, words: str) -> None:
    report = check(tmp_path, ISLANDS.replace("Gamma Rock,50,60,", f"Gamma Rock,{coordinates},"))
    assert not report.playable
    finding = only(report.findings, FindingCode.PARSE)
    assert finding.line == 16 and words in finding.message


def test_a_line_with_too_few_fields_is_a_parse_error(tmp_path: Path) -> None:
    report = check(tmp_path, ISLANDS + "Delta\n")
    assert only(report.findings, FindingCode.PARSE).line == 17
    assert not report.playable


def test_an_unknown_continent_is_an_error_naming_its_territories(tmp_path: Path) -> None:
    report = check(tmp_path, ISLANDS.replace("Gamma Rock,50,60,South Isles", "Gamma Rock,50,60,West Isles"))
    assert not report.playable
    finding = only(report.findings, FindingCode.UNKNOWN_CONTINENT)
    assert (finding.line, finding.territories) == (16, ("Gamma Rock",))
    assert '"West Isles"' in finding.message


def test_an_unknown_neighbour_is_an_error_naming_both(tmp_path: Path) -> None:
    report = check(tmp_path, ISLANDS.replace("Alpha Point,Beta Bay\n", "Alpha Point,Beta Bay,Delta\n"))
    assert not report.playable
    finding = only(report.findings, FindingCode.UNKNOWN_TERRITORY)
    assert (finding.line, finding.territories) == (16, ("Gamma Rock", "Delta"))


def test_neighbours_may_be_named_before_they_are_defined(tmp_path: Path) -> None:
    report = check(tmp_path, ISLANDS)  # Alpha names Gamma Rock three lines before its definition
    assert report.game_map is not None and "Gamma Rock" in report.game_map.neighbours("Alpha Point")


def test_a_territory_defined_twice_even_in_another_case_is_an_error(tmp_path: Path) -> None:
    report = check(tmp_path, ISLANDS + "gamma rock,1,1,South Isles,Beta Bay\n")
    assert not report.playable
    finding = only(report.findings, FindingCode.DUPLICATE_TERRITORY)
    assert (finding.line, finding.territories) == (17, ("Gamma Rock",))
    assert "line 16" in finding.message


def test_a_continent_defined_twice_is_an_error(tmp_path: Path) -> None:
    report = check(tmp_path, ISLANDS.replace("South Isles=2", "South Isles=2\nnorth isles=4"))
    assert not report.playable
    assert only(report.findings, FindingCode.DUPLICATE_CONTINENT).line == 11


def test_a_continent_bonus_must_be_a_whole_number(tmp_path: Path) -> None:
    report = check(tmp_path, ISLANDS.replace("South Isles=2", "South Isles=two"))
    assert only(report.findings, FindingCode.PARSE).line == 10
    assert not report.playable


def test_a_continent_worth_nothing_or_empty_is_only_a_warning(tmp_path: Path) -> None:
    report = check(tmp_path, ISLANDS.replace("South Isles=2", "South Isles=0\nEmpty Isles=4"))
    assert report.playable
    assert codes(report.findings) == {
        (Severity.WARNING, FindingCode.CONTINENT_WORTHLESS),
        (Severity.WARNING, FindingCode.CONTINENT_EMPTY),
    }


def test_a_misspelt_section_is_reported_with_a_suggestion(tmp_path: Path) -> None:
    report = check(tmp_path, ISLANDS.replace("[Continents]", "[Continent]"))
    assert not report.playable
    parse = only(report.findings, FindingCode.PARSE)
    assert parse.line == 8 and "did you mean [Continents]" in parse.message
    unknown = [f for f in report.findings if f.code is FindingCode.UNKNOWN_CONTINENT]
    assert [(f.line, f.territories) for f in unknown] == [(13, ("Alpha Point", "Beta Bay")), (16, ("Gamma Rock",))]


def test_a_line_before_any_section_is_a_parse_error(tmp_path: Path) -> None:
    report = check(tmp_path, "Stray,1,2,North Isles\n" + ISLANDS)
    assert only(report.findings, FindingCode.PARSE).line == 1


def test_a_disconnected_map_is_refused_naming_the_cut_off_part(tmp_path: Path) -> None:
    report = check(tmp_path, ISLANDS + "Delta,1,1,South Isles,Epsilon\nEpsilon,2,2,South Isles,Delta\n")
    assert not report.playable
    assert set(only(report.findings, FindingCode.DISCONNECTED).territories) == {"Delta", "Epsilon"}


@pytest.mark.parametrize("data", [b"", b"[Map]\nauthor=x\n", b"just,some,text\n"])
def test_text_without_continents_or_territories_is_not_a_map(data: bytes) -> None:
    game_map, findings = read_conquest(data)
    assert game_map is None
    assert (Severity.ERROR, FindingCode.PARSE) in codes(findings)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "[Map]",
                "[Continents]",
                "[Territories]",
                "[x]",
                "",
                "  ",
                ";c",
                "author=a",
                "noequals",
                "A=1",
                "B=x",
                "=3",
                "T1,1,2,A,T2",
                "T2,1,2,a,t1,",
                "T3,,,A",
                "T1,3,4,B",
                "T4",
                ",,,",
                "\xe9,1,1,A,T1",
            ]
        ),
        max_size=30,
    ),
    st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_any_jumble_of_lines_gives_findings_not_exceptions(lines: list[str], newline: str) -> None:
    data = newline.join(lines).encode("latin-1")
    game_map, findings = read_conquest(data)
    assert game_map is not None or findings
    for finding in findings:
        assert finding.line is None or 1 <= finding.line <= len(lines)
