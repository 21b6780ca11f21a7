"""The Domination reader on small files, one quirk of real files at a time (../shared/spec/map-formats.md §1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.maps import Finding, FindingCode, Severity, check_map_file
from shared.maps.domination import read_domination
from shared.maps.loader import MapReport

TRIANGLE = """\
; a small map for tests
; second comment line
name Triangle Test

[files]
pic triangle_pic.png
map triangle_map.gif
crd triangle.cards

[continents]
North_Land 3 red
South 2 #00ff00

[countries]
1 Alpha 1 10 20
2 Beta_Two 1 30 40
3 Gamma 2 50 60

[borders]
1 2 3
2 1 3
3 1 2
"""


def write(
    tmp_path: Path,
    text: str,
    *,
    name: str = "triangle.map",
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
    name: str = "triangle.map",
    encoding: str = "utf-8",
    newline: str = "\n",
    prefix: bytes = b"",
) -> MapReport:
    report = check_map_file(write(tmp_path, text, name=name, encoding=encoding, newline=newline, prefix=prefix))
    assert report.format == "domination"
    return report


def codes(findings: list[Finding]) -> set[tuple[Severity, FindingCode]]:
    return {(f.severity, f.code) for f in findings}


def only(findings: list[Finding], code: FindingCode) -> Finding:
    found = [f for f in findings if f.code is code]
    assert len(found) == 1, [str(f) for f in findings]
    return found[0]


def test_a_well_formed_map_reads_into_the_model(tmp_path: Path) -> None:
    report = check(tmp_path, TRIANGLE)
    assert report.findings == []
    game_map = report.game_map
    assert game_map is not None
    assert game_map.name == "Triangle Test"
    assert game_map.description == "a small map for tests\nsecond comment line"
    assert game_map.names == ("Alpha", "Beta_Two", "Gamma")  # `_` kept as written
    assert [(c.name, c.bonus) for c in game_map.continents] == [("North_Land", 3), ("South", 2)]
    assert [(t.continent, t.x, t.y) for t in game_map.territories] == [
        ("North_Land", 10, 20),
        ("North_Land", 30, 40),
        ("South", 50, 60),
    ]
    assert game_map.neighbours("Alpha") == {"Beta_Two", "Gamma"}


def test_without_a_name_line_the_map_is_named_after_its_file(tmp_path: Path) -> None:
    report = check(tmp_path, TRIANGLE.replace("name Triangle Test\n", ""), name="my_board.map")
    assert report.game_map is not None and report.game_map.name == "my_board"
    unnamed, _ = read_domination(TRIANGLE.replace("name Triangle Test\n", "").encode())
    assert unnamed is not None and unnamed.name == ""


@pytest.mark.parametrize("newline", ["\r\n", "\r", "\n"], ids=["CRLF", "CR", "LF"])
def test_any_line_end_gives_the_same_map_and_line_numbers(tmp_path: Path, newline: str) -> None:
    text = TRIANGLE.replace("3 Gamma 2 50 60", "3 Gamma 2 50")  # line 17: one coordinate only
    report = check(tmp_path, text, newline=newline)
    assert report.game_map is not None and report.game_map.names == ("Alpha", "Beta_Two", "Gamma")
    assert only(report.findings, FindingCode.PARSE).line == 17


def test_mixed_line_ends_count_each_line_once(tmp_path: Path) -> None:
    lines = TRIANGLE.replace("3 Gamma 2 50 60", "3 Gamma 2 50").split("\n")
    data = b"".join(line.encode() + (b"\r\n" if i % 2 else b"\n") for i, line in enumerate(lines))
    game_map, findings = read_domination(data)
    assert game_map is not None and len(game_map.territories) == 3
    assert only(findings, FindingCode.PARSE).line == 17


def test_a_utf8_bom_is_dropped(tmp_path: Path) -> None:
    report = check(tmp_path, TRIANGLE.replace("Alpha", "Zürich"), prefix=b"\xef\xbb\xbf")
    assert report.playable and report.game_map is not None
    assert report.game_map.names[0] == "Zürich"


def test_utf8_without_a_bom_keeps_its_letters(tmp_path: Path) -> None:
    report = check(tmp_path, TRIANGLE.replace("Alpha", "Lääne"))
    assert report.game_map is not None and report.game_map.names[0] == "Lääne"


def test_latin1_files_read_as_latin1(tmp_path: Path) -> None:
    report = check(tmp_path, TRIANGLE.replace("Alpha", "Mitrovicë").replace("South", "Prishtinë"), encoding="latin-1")
    assert report.playable and report.game_map is not None
    assert report.game_map.names[0] == "Mitrovicë"
    assert report.game_map.continents[1].name == "Prishtinë"


def test_trailing_spaces_tabs_and_blank_lines_of_spaces_are_ignored(tmp_path: Path) -> None:
    text = "\n".join(line + " \t " for line in TRIANGLE.split("\n")).replace("\n\n", "\n   \n")
    report = check(tmp_path, text)
    assert report.findings == []
    assert report.game_map is not None and report.game_map.names == ("Alpha", "Beta_Two", "Gamma")


def test_comment_lines_anywhere_are_skipped(tmp_path: Path) -> None:
    text = TRIANGLE.replace("[countries]\n", "[countries]\n; Alpha is the capital\n")
    text = text.replace("[borders]\n", "[borders]\n;1 3\n")
    report = check(tmp_path, text)
    assert report.findings == []


def test_the_files_section_is_optional(tmp_path: Path) -> None:
    text = TRIANGLE.replace("[files]\npic triangle_pic.png\nmap triangle_map.gif\ncrd triangle.cards\n", "")
    report = check(tmp_path, text)
    assert report.playable and report.findings == []


def test_a_continent_colour_may_be_missing(tmp_path: Path) -> None:
    report = check(tmp_path, TRIANGLE.replace("South 2 #00ff00", "South 2"))
    assert report.playable and report.findings == []


def test_a_country_without_x_y_is_a_warning(tmp_path: Path) -> None:
    report = check(tmp_path, TRIANGLE.replace("2 Beta_Two 1 30 40", "2 Beta_Two 1"))
    assert report.playable
    finding = only(report.findings, FindingCode.MISSING_COORDINATES)
    assert (finding.severity, finding.line, finding.territories) == (Severity.WARNING, 16, ("Beta_Two",))
    assert report.game_map is not None and report.game_map.territory("Beta_Two").x is None


@pytest.mark.parametrize("line", ["2 Beta_Two 1 30", "2 Beta_Two 1 30 forty", "2 Beta Two 1 30 40"])
def test_a_broken_position_is_a_parse_error(tmp_path: Path, line: str) -> None:
    report = check(tmp_path, TRIANGLE.replace("2 Beta_Two 1 30 40", line))
    assert not report.playable
    finding = only(report.findings, FindingCode.PARSE)
    assert finding.line == 16 and finding.severity is Severity.ERROR
    assert finding.territories == (("Beta_Two",) if "_" in line else ("Beta",))


def test_a_one_way_border_stays_one_way(tmp_path: Path) -> None:
    report = check(tmp_path, TRIANGLE.replace("3 1 2\n", "3 1\n"))
    assert report.playable
    game_map = report.game_map
    assert game_map is not None
    assert "Gamma" in game_map.neighbours("Beta_Two") and "Beta_Two" not in game_map.neighbours("Gamma")
    finding = only(report.findings, FindingCode.ONE_WAY_BORDER)
    assert finding.severity is Severity.WARNING and set(finding.territories) == {"Beta_Two", "Gamma"}


def test_a_country_with_no_border_line_only_receives(tmp_path: Path) -> None:
    report = check(tmp_path, TRIANGLE.replace("3 1 2\n", ""))
    assert report.playable
    assert codes(report.findings) == {
        (Severity.WARNING, FindingCode.ONE_WAY_BORDER),
        (Severity.WARNING, FindingCode.UNREACHABLE),
    }
    assert only(report.findings, FindingCode.UNREACHABLE).territories == ("Gamma",)


def test_duplicate_neighbours_are_collapsed_with_a_warning(tmp_path: Path) -> None:
    report = check(tmp_path, TRIANGLE.replace("1 2 3\n", "1 2 3 2\n1 3\n"))
    assert report.playable
    assert report.game_map is not None and report.game_map.neighbours("Alpha") == {"Beta_Two", "Gamma"}
    duplicates = [f for f in report.findings if f.code is FindingCode.DUPLICATE_BORDER]
    assert [(f.line, f.territories, f.severity) for f in duplicates] == [
        (20, ("Alpha", "Beta_Two"), Severity.WARNING),
        (21, ("Alpha", "Gamma"), Severity.WARNING),
    ]


def test_a_second_border_line_adds_neighbours(tmp_path: Path) -> None:
    report = check(tmp_path, TRIANGLE.replace("1 2 3\n", "1 2\n1 3\n"))
    assert report.findings == []
    assert report.game_map is not None and report.game_map.neighbours("Alpha") == {"Beta_Two", "Gamma"}


def test_an_unknown_continent_number_is_an_error_naming_the_countries(tmp_path: Path) -> None:
    report = check(tmp_path, TRIANGLE.replace("3 Gamma 2 50 60", "3 Gamma 7 50 60"))
    assert not report.playable
    finding = only(report.findings, FindingCode.UNKNOWN_CONTINENT)
    assert (finding.line, finding.territories) == (17, ("Gamma",))
    assert "7" in finding.message


def test_country_numbers_must_count_up_from_one(tmp_path: Path) -> None:
    report = check(tmp_path, TRIANGLE.replace("2 Beta_Two 1 30 40", "5 Beta_Two 1 30 40"))
    assert not report.playable
    parse = [f for f in report.findings if f.code is FindingCode.PARSE]
    assert [f.line for f in parse] == [16, 17]  # 5 where 2 was expected, then 3 where 2 was expected
    assert "where 2 was expected" in parse[0].message


def test_a_border_to_an_unknown_number_is_an_error_naming_the_country(tmp_path: Path) -> None:
    report = check(tmp_path, TRIANGLE.replace("1 2 3\n", "1 2 3 9\n"))
    assert not report.playable
    finding = only(report.findings, FindingCode.UNKNOWN_TERRITORY)
    assert (finding.line, finding.territories) == (20, ("Alpha",))
    assert "9" in finding.message


def test_borders_for_an_unknown_country_are_an_error(tmp_path: Path) -> None:
    report = check(tmp_path, TRIANGLE + "4 1\n")
    assert only(report.findings, FindingCode.UNKNOWN_TERRITORY).line == 23
    assert not report.playable


def test_a_border_line_with_a_name_is_a_parse_error(tmp_path: Path) -> None:
    report = check(tmp_path, TRIANGLE.replace("1 2 3\n", "1 Beta_Two 3\n"))
    assert only(report.findings, FindingCode.PARSE).line == 20


def test_a_country_defined_twice_is_an_error(tmp_path: Path) -> None:
    report = check(tmp_path, TRIANGLE.replace("3 Gamma 2 50 60", "3 Alpha 2 50 60"))
    assert not report.playable
    finding = only(report.findings, FindingCode.DUPLICATE_TERRITORY)
    assert (finding.line, finding.territories) == (17, ("Alpha",))


def test_a_continent_defined_twice_is_an_error(tmp_path: Path) -> None:
    report = check(tmp_path, TRIANGLE.replace("South 2 #00ff00", "North_Land 2 #00ff00"))
    assert not report.playable
    assert only(report.findings, FindingCode.DUPLICATE_CONTINENT).line == 12


def test_an_unknown_section_is_reported_with_a_suggestion(tmp_path: Path) -> None:
    report = check(tmp_path, TRIANGLE.replace("[files]", "[file]"))
    finding = only(report.findings, FindingCode.PARSE)
    assert finding.line == 5 and "[files]" in finding.message
    assert not report.playable


def test_a_missing_section_header_is_named(tmp_path: Path) -> None:
    report = check(tmp_path, TRIANGLE.replace("[borders]\n", ""))
    assert not report.playable
    messages = [f.message for f in report.findings if f.code is FindingCode.PARSE]
    assert any("[borders] header missing" in m for m in messages)
    assert any("no [borders] section" in m for m in messages)


def test_a_disconnected_map_is_refused_naming_the_cut_off_part(tmp_path: Path) -> None:
    text = TRIANGLE.replace("3 Gamma 2 50 60", "3 Gamma 2 50 60\n4 Delta 2 70 80")
    text = text.replace("1 2 3\n2 1 3\n3 1 2\n", "1 2\n2 1\n3 4\n4 3\n")
    report = check(tmp_path, text)
    assert not report.playable
    assert set(only(report.findings, FindingCode.DISCONNECTED).territories) == {"Gamma", "Delta"}


def test_a_continent_worth_nothing_is_only_a_warning(tmp_path: Path) -> None:
    report = check(tmp_path, TRIANGLE.replace("South 2", "South 0"))
    assert report.playable
    assert codes(report.findings) == {(Severity.WARNING, FindingCode.CONTINENT_WORTHLESS)}


@pytest.mark.parametrize("data", [b"", b"\xef\xbb\xbf", b"hello world\n", b"name Nothing\n; just a comment\n"])
def test_text_without_any_map_section_is_not_a_map(data: bytes) -> None:
    game_map, findings = read_domination(data)
    assert game_map is None
    assert codes(findings) == {(Severity.ERROR, FindingCode.PARSE)}


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "[continents]",
                "[countries]",
                "[borders]",
                "[files]",
                "[x]",
                "",
                " ",
                ";c",
                "A 1 red",
                "1 A 1 2 3",
                "2 B 1",
                "1 2 3",
                "2 1",
                "1",
                "9 9",
                "x y z",
                "name N",
                "pic p.png",
                "\xe9 1 red",
                "1 \xe9 1 0 0",
            ]
        ),
        max_size=30,
    ),
    st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_any_jumble_of_lines_gives_findings_not_exceptions(lines: list[str], newline: str) -> None:
    data = newline.join(lines).encode("latin-1")
    game_map, findings = read_domination(data)
    assert game_map is not None or findings
    for finding in findings:
        assert finding.line is None or 1 <= finding.line <= len(lines)
