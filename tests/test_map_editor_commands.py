"""The map editor's commands (../shared/spec/classic.md M1), each and each of its refusals, through the pure core.

A session here is the editor without a terminal: lines go through shared.maps.editor.run_line, and a save is written
with the same atomic write the shell uses.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.maps import Continent, FindingCode, Territory, build_map, load_map
from shared.maps.edit_commands import (
    COMMANDS,
    CommandError,
    EditCommand,
    Help,
    Quit,
    SaveMap,
    ShowMap,
    Undo,
    ValidateMap,
    parse_command,
    tokenize,
)
from shared.maps.editing import AddBorder, AddContinent, AddTerritory, RemoveBorder, RemoveContinent, RemoveTerritory
from shared.maps.editor import Action, EditorState, execute
from shared.maps.native import write_native
from shared.maps.saving import MapFormat
from shared.maps.validate import MapRules
from tests.map_editor_support import Session, two_way

# --- the grammar ----------------------------------------------------------------------------------------------


def test_quoted_names_may_hold_spaces_and_are_never_options() -> None:
    words = tokenize('editcountry -add "North America" "-add" Europe')
    assert [(w.text, w.quoted) for w in words] == [
        ("editcountry", False),
        ("-add", False),
        ("North America", True),
        ("-add", True),
        ("Europe", False),
    ]


def test_options_may_repeat_in_one_command_and_keep_their_order() -> None:
    command = parse_command("editcountry -add A X -add B X -remove C")
    assert isinstance(command, EditCommand)
    assert command.edits == (AddTerritory("A", "X"), AddTerritory("B", "X"), RemoveTerritory("C"))


@pytest.mark.parametrize(
    ("line", "edits"),
    [
        ("editcontinent -add Europe 5 -remove Asia", (AddContinent("Europe", 5), RemoveContinent("Asia"))),
        ('editcountry -add "Isle of Man" Europe', (AddTerritory("Isle of Man", "Europe"),)),
        ("editneighbor -add A B -remove C D", (AddBorder("A", "B"), RemoveBorder("C", "D"))),
        ("EDITNEIGHBOUR -ADD A B", (AddBorder("A", "B"),)),
        ("editterritory -remove A", (RemoveTerritory("A"),)),
    ],
)
def test_each_edit_command_reads_into_its_edits(line: str, edits: tuple[object, ...]) -> None:
    command = parse_command(line)
    assert isinstance(command, EditCommand)
    assert command.edits == edits


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("showmap", ShowMap()),
        ("validatemap", ValidateMap()),
        ("val", ValidateMap()),
        ("undo", Undo()),
        ("savemap", SaveMap()),
        ("savemap out.map", SaveMap("out.map")),
        ("savemap out.map -format conquest", SaveMap("out.map", MapFormat.CONQUEST)),
        ("savemap -format DOM out.map", SaveMap("out.map", MapFormat.DOMINATION)),
        ('savemap "my maps/out.toml"', SaveMap("my maps/out.toml")),
        ("quit", Quit()),
        ("exit", Quit()),
        ("quit -force", Quit(force=True)),
        ("help", Help()),
    ],
)
def test_each_other_command_reads_into_its_value(line: str, command: object) -> None:
    assert parse_command(line) == command


def test_help_names_a_command() -> None:
    command = parse_command("help editcountry")
    assert isinstance(command, Help) and command.topic is not None and command.topic.name == "editcountry"


def test_blank_lines_and_comments_are_no_command() -> None:
    assert parse_command("   ") is None
    assert parse_command("  # a comment") is None


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("validatmap", ['unknown command "validatmap" (did you mean validatemap?)']),
        ("editmap x", ["quit and run risc maps edit FILE"]),
        ("editc -add A 1", ['"editc" could be any of: editcontinent, editcountry']),
        ("editcountry", ["editcountry needs at least one of -add and -remove"]),
        ("editcontinent -add Europe", ["-add needs NAME VALUE"]),
        ("editcontinent -add Europe -remove Asia", ["-add needs NAME VALUE"]),
        ("editneighbor -add A", ["-add needs A B"]),
        ("editcountry -move A X", ['unknown option "-move"', "editcountry takes -add or -remove"]),
        ("editcontinent -add Europe five", ['"five" is not a whole number']),
        (
            "editcountry -add North America Europe",
            ['unexpected "Europe" after -add North America', 'double quotes, as "North America"'],
        ),
        ("showmap now", ['unexpected "now"']),
        ("savemap a.map b.map", ['unexpected "b.map"']),
        ("savemap a.map -format png", ['unknown format "png"']),
        ("savemap a.map -format", ["-format needs FORMAT"]),
        ("quit -now", ['unknown option "-now"']),
        ("help nothing", ['unknown command "nothing"']),
    ],
)
def test_a_malformed_command_is_refused_with_how_to_say_it(line: str, words: list[str]) -> None:
    command = parse_command(line)
    assert isinstance(command, CommandError)
    for word in words:
        assert word in command.message


# --- editing --------------------------------------------------------------------------------------------------


@pytest.fixture
def session(tmp_path: Path) -> Session:
    """Two continents, four territories: North (Narnia, Oz) and South (Gondor, Mordor), in a line."""
    s = Session.new(tmp_path / "small.map")
    s.ok("editcontinent -add North 3 -add South 2")
    s.ok("editcountry -add Narnia North -add Oz North -add Gondor South -add Mordor South")
    s.ok("editneighbor -add Narnia Oz -add Oz Gondor -add Gondor Mordor")
    return s


def test_editcontinent_adds_continents_with_their_values(session: Session) -> None:
    assert session.map.continents == (Continent("North", 3), Continent("South", 2))


def test_editcountry_adds_territories_to_their_continents(session: Session) -> None:
    assert session.map.territories == (
        Territory("Narnia", "North"),
        Territory("Oz", "North"),
        Territory("Gondor", "South"),
        Territory("Mordor", "South"),
    )


def test_editneighbor_adds_a_border_both_ways(session: Session) -> None:
    assert session.map.neighbours("Oz") == {"Narnia", "Gondor"}
    assert "Oz" in session.map.neighbours("Narnia") and "Oz" in session.map.neighbours("Gondor")


def test_editneighbor_remove_takes_the_border_away_both_ways(session: Session) -> None:
    said = session.ok("editneighbor -remove Oz Gondor")
    assert "Gondor" not in session.map.neighbours("Oz") and "Oz" not in session.map.neighbours("Gondor")
    assert said == '"Oz" and "Gondor" no longer border each other'


def test_editneighbor_add_makes_a_one_way_border_two_way(tmp_path: Path) -> None:
    base = build_map("m", [Territory("A", "C"), Territory("B", "C")], {"A": ["B"]}, [Continent("C", 1)])
    s = Session(EditorState(base, tmp_path / "m.map", None, base))
    assert "now goes both ways" in s.ok("editneighbor -add B A")
    assert s.map.neighbours("B") == {"A"} and s.map.neighbours("A") == {"B"}


def test_editcountry_remove_takes_its_borders_with_it(session: Session) -> None:
    said = session.ok("editcountry -remove Oz")
    assert "Oz" not in session.map
    assert all("Oz" not in session.map.neighbours(n) for n in session.map.names)
    assert said == 'removed territory "Oz" and its borders with "Narnia", "Gondor"'


def test_editcontinent_remove_takes_its_territories_and_their_borders(session: Session) -> None:
    said = session.ok("editcontinent -remove South")
    assert session.map.names == ("Narnia", "Oz")
    assert [c.name for c in session.map.continents] == ["North"]
    assert session.map.neighbours("Oz") == {"Narnia"}
    assert said == 'removed continent "South" and its territories "Gondor", "Mordor"'


def test_names_of_what_exists_match_ignoring_case_or_by_a_unique_prefix(session: Session) -> None:
    assert session.ok("editneighbor -add narnia GON") == '"Narnia" and "Gondor" now border each other'
    assert session.ok("editcountry -remove Mor") == 'removed territory "Mordor" and its borders with "Gondor"'


def test_an_exact_name_wins_over_a_longer_one_it_prefixes(tmp_path: Path) -> None:
    s = Session.new(tmp_path / "m.map")
    s.ok("editcontinent -add C 1")
    s.ok("editcountry -add Oz C -add Ozma C")
    s.ok("editcountry -remove oz")
    assert s.map.names == ("Ozma",)


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("editcontinent -add north 4", ['there is already a continent "North"', "ignoring case"]),
        ("editcontinent -add West -1", ["0 or more"]),
        ("editcontinent -remove East", ['there is no continent "East"']),
        ("editcountry -add oz North", ['there is already a territory "Oz"']),
        ("editcountry -add Rohan West", ['there is no continent "West"']),
        ("editcountry -remove Rohan", ['there is no territory "Rohan"']),
        ("editcountry -remove Narna", ['there is no territory "Narna" (did you mean "Narnia"?)']),
        ("editneighbor -add Narnia Narnia", ['"Narnia" cannot border itself']),
        ("editneighbor -add Narnia Oz", ['"Narnia" and "Oz" already border each other']),
        ("editneighbor -remove Narnia Mordor", ['"Narnia" and "Mordor" do not border each other']),
        ("editneighbor -add Narnia Atlantis", ['there is no territory "Atlantis"']),
        ('editcountry -add " Oz2" North', ["cannot start or end with a space"]),
    ],
)
def test_an_edit_that_cannot_be_made_changes_nothing_and_says_why(
    session: Session, line: str, words: list[str]
) -> None:
    said = session.fails(line)
    for word in words:
        assert word in said


def test_a_prefix_of_several_names_is_refused_with_them(tmp_path: Path) -> None:
    s = Session.new(tmp_path / "m.map")
    s.ok("editcontinent -add C 1")
    s.ok("editcountry -add Gondor C -add Gorgoroth C")
    said = s.fails("editcountry -remove Go")
    assert '"Gondor"' in said and '"Gorgoroth"' in said


def test_a_territory_needs_a_continent_to_go_in(tmp_path: Path) -> None:
    s = Session.new(tmp_path / "m.map")
    assert "add one first with editcontinent -add NAME VALUE" in s.fails("editcountry -add Narnia North")


def test_one_command_applies_all_its_edits_or_none(session: Session) -> None:
    before = session.map
    said = session.fails("editcountry -add Rohan South -add Isengard West")
    assert 'there is no continent "West"' in said and "nothing was changed" in said
    assert session.map == before and "Rohan" not in session.map


def test_later_edits_of_one_command_see_the_earlier_ones(tmp_path: Path) -> None:
    s = Session.new(tmp_path / "m.map")
    s.ok("editcontinent -add East 2 -remove East -add East 4")
    assert s.map.continents == (Continent("East", 4),)


def test_removing_a_territory_drops_the_starting_groups_that_held_it(tmp_path: Path) -> None:
    path = tmp_path / "seed.toml"
    path.write_text(write_native(load_map("seed")), encoding="utf-8")
    s = Session.open(path, MapRules.RISC)
    assert 3 in s.map.starting_groups
    assert "the starting groups for 3 players held it and are dropped" in s.ok("editcountry -remove Narnia")
    assert s.map.starting_groups == {}


# --- undo -----------------------------------------------------------------------------------------------------


def test_undo_takes_back_one_whole_command(session: Session) -> None:
    before = session.map
    session.ok("editcountry -add Rohan South -add Isengard South -remove Narnia")
    assert session.ok("undo") == "undid: editcountry -add Rohan South -add Isengard South -remove Narnia"
    assert session.map == before


def test_every_edit_can_be_undone_back_to_the_empty_map(session: Session) -> None:
    for _ in range(3):
        session.ok("undo")
    assert session.map.names == () and session.map.continents == ()
    assert "nothing to undo" in session.fails("undo")


def test_a_failed_command_is_no_undo_step(session: Session) -> None:
    session.fails("editcountry -add Rohan West")
    session.ok("undo")
    assert two_way(session.map) == set()  # the editneighbor command was the one undone


def test_undo_after_a_save_leaves_unsaved_changes(session: Session) -> None:
    session.ok("savemap")
    assert not session.state.unsaved
    session.ok("undo")
    assert session.state.unsaved


# --- showmap --------------------------------------------------------------------------------------------------


def test_showmap_lists_each_continent_and_each_territory_with_its_neighbours(session: Session) -> None:
    lines = session.ok("showmap").splitlines()
    assert lines[0].startswith("small (")
    assert "4 territories, 2 continents, 3 borders; unsaved changes" in lines[0]
    assert "  North (worth 3): Narnia, Oz" in lines
    assert "  South (worth 2): Gondor, Mordor" in lines
    rows = {line.split()[0]: line for line in lines if line.startswith("  ") and "[" in line}
    assert rows["Oz"].split() == ["Oz", "[North]", "Narnia,", "Gondor"]
    assert rows["Mordor"].split() == ["Mordor", "[South]", "Gondor"]


def test_showmap_marks_one_way_borders_and_territories_without_one(tmp_path: Path) -> None:
    base = build_map(
        "m",
        [Territory("A", "C"), Territory("B", "C"), Territory("D")],
        {"A": ["B"]},
        [Continent("C", 1), Continent("E", 0)],
    )
    s = Session(EditorState(base, tmp_path / "m.map", None, base))
    lines = s.ok("showmap").splitlines()
    assert "1 one-way" in lines[0]
    assert "  E (worth 0): no territory" in lines
    assert any(line.split()[:3] == ["A", "[C]", "one-way"] and line.endswith("to B") for line in lines)
    assert any(line.split()[:2] == ["B", "[C]"] and line.endswith("one-way from A") for line in lines)
    assert any(line.split()[:4] == ["D", "[no", "continent]", "no"] for line in lines)


def test_showmap_of_a_new_map_says_how_to_start(tmp_path: Path) -> None:
    assert "editcontinent -add NAME VALUE" in Session.new(tmp_path / "new.map").ok("showmap")


# --- validatemap ----------------------------------------------------------------------------------------------


def findings_of(session: Session) -> list[str]:
    return session.ok("validatemap").splitlines()[1:]


def test_validatemap_says_a_valid_map_is_valid(session: Session) -> None:
    assert session.ok("validatemap") == ("the map is valid under the course rules (small, 4 territories, 2 continents)")


def test_validatemap_names_the_territories_cut_off_from_the_rest(session: Session) -> None:
    session.ok("editneighbor -remove Oz Gondor")
    assert any(
        "error: the map falls into 2 pieces" in line and '"Gondor", "Mordor"' in line for line in findings_of(session)
    )


def test_validatemap_names_a_continent_in_pieces(session: Session) -> None:
    session.ok("editcountry -add Rohan North")
    session.ok("editneighbor -add Rohan Mordor")
    assert any('error: continent "North" is in 2 pieces' in line for line in findings_of(session))


def test_validatemap_names_an_empty_continent(session: Session) -> None:
    session.ok("editcontinent -add West 1")
    assert '  error: continent "West" has no territory' in findings_of(session)


def test_validatemap_names_each_one_way_border(tmp_path: Path) -> None:
    base = build_map(
        "m",
        [Territory("A", "C"), Territory("B", "C"), Territory("D", "C")],
        {"A": ["B", "D"], "B": ["D"], "D": ["B"]},
        [Continent("C", 1)],
    )
    lines = findings_of(Session(EditorState(base, tmp_path / "m.map", None, base)))
    assert '  error: one-way border: "A" -> "B", with no border back' in lines
    assert '  error: one-way border: "A" -> "D", with no border back' in lines


def test_validatemap_names_territories_in_no_continent_or_an_unknown_one(tmp_path: Path) -> None:
    base = build_map(
        "m",
        [Territory("A", "C"), Territory("B"), Territory("D", "Atlantis")],
        {"A": ["B"], "B": ["A", "D"], "D": ["B"]},
        [Continent("C", 1)],
    )
    lines = findings_of(Session(EditorState(base, tmp_path / "m.map", None, base)))
    assert '  error: territories in no continent: "B"' in lines
    assert '  error: "D" is in continent "Atlantis", which is not defined' in lines


def test_validatemap_names_duplicates(tmp_path: Path) -> None:
    base = build_map(
        "m",
        [Territory("A", "C"), Territory("B", "C"), Territory("A", "C")],
        {"A": ["B"], "B": ["A"]},
        [Continent("C", 1), Continent("C", 2)],
    )
    lines = findings_of(Session(EditorState(base, tmp_path / "m.map", None, base)))
    assert '  error: territory "A" is defined 2 times' in lines
    assert '  error: continent "C" is defined 2 times' in lines


def test_validatemap_on_the_risc_rules_keeps_what_risc_plays_as_warnings(tmp_path: Path) -> None:
    path = tmp_path / "seed.toml"
    path.write_text(write_native(load_map("seed")), encoding="utf-8")
    course, risc = Session.open(path), Session.open(path, MapRules.RISC)
    assert "territories in no continent" in course.ok("validatemap")
    assert risc.ok("validatemap").startswith("the map is valid under the RISC rules")
    risc.ok("editneighbor -remove Narnia Midkemia -remove Narnia Elantris")
    assert "not valid" in risc.ok("validatemap")


def test_validatemap_findings_name_what_they_concern(session: Session) -> None:
    """The findings carry the names as data too, for tools; the course rules' findings included."""
    from shared.maps.validate import validate_map

    session.ok("editcontinent -add West 1")
    session.ok("editcountry -add Rohan North -add Lone South")
    session.ok("editneighbor -add Rohan Mordor")
    findings = validate_map(session.map, MapRules.COURSE)
    assert [f.continents for f in findings if f.code is FindingCode.CONTINENT_EMPTY] == [("West",)]
    assert [f.continents for f in findings if f.code is FindingCode.CONTINENT_SPLIT] == [("North",), ("South",)]
    assert [f.territories for f in findings if f.code is FindingCode.DISCONNECTED] == [("Lone",)]


# --- savemap --------------------------------------------------------------------------------------------------


def test_savemap_refuses_an_invalid_map_with_every_finding_and_writes_nothing(session: Session) -> None:
    session.ok("editcontinent -add West 1")
    session.ok("editneighbor -remove Oz Gondor")
    said = session.fails("savemap")
    assert said.startswith("error: not saved: the map has 2 errors")
    assert 'continent "West" has no territory' in said and "falls into 2 pieces" in said
    assert not session.state.path.exists()
    assert session.state.unsaved


def test_savemap_without_a_file_writes_the_file_being_edited(session: Session) -> None:
    assert session.ok("savemap").startswith(f"saved {session.state.path} (Domination)")
    assert session.state.path.read_bytes().startswith(b"name small")
    assert not session.state.unsaved


def test_savemap_to_another_file_edits_that_file_from_then_on(session: Session, tmp_path: Path) -> None:
    session.ok(f"savemap {tmp_path / 'other.toml'}")
    assert session.state.path == tmp_path / "other.toml" and session.state.source_format is MapFormat.NATIVE
    session.ok("editcontinent -add West 1 -remove West")
    session.ok("savemap")
    assert load_map(tmp_path / "other.toml").names == session.map.names


@pytest.mark.parametrize(
    ("name", "option", "source", "expected"),
    [
        ("out.toml", "", None, MapFormat.NATIVE),
        ("out.map", "", None, MapFormat.DOMINATION),
        ("out.txt", "", None, MapFormat.DOMINATION),
        ("out.map", "", MapFormat.CONQUEST, MapFormat.CONQUEST),
        ("out.map", "", MapFormat.NATIVE, MapFormat.DOMINATION),
        ("out.map", " -format conquest", MapFormat.DOMINATION, MapFormat.CONQUEST),
        ("out.toml", " -format native", MapFormat.CONQUEST, MapFormat.NATIVE),
    ],
)
def test_savemap_takes_the_format_from_the_option_else_the_name_else_the_source(
    tmp_path: Path, session: Session, name: str, option: str, source: MapFormat | None, expected: MapFormat
) -> None:
    session.state = EditorState(session.map, session.state.path, source, session.state.saved)
    assert f"({expected.label})" in session.ok(f"savemap {tmp_path / name}{option}")
    assert session.state.source_format is expected


@pytest.mark.parametrize(
    ("name", "option", "words"),
    [
        ("out.toml", "-format domination", "out.toml would be read back as a native map"),
        ("out.map", "-format native", "a native map is read only from a .toml file"),
    ],
)
def test_savemap_refuses_a_format_its_file_would_not_be_read_in(
    session: Session, tmp_path: Path, name: str, option: str, words: str
) -> None:
    said = session.fails(f"savemap {tmp_path / name} {option}")
    assert words in said and not (tmp_path / name).exists()


def test_savemap_refuses_names_the_format_cannot_hold(session: Session, tmp_path: Path) -> None:
    session.ok('editcountry -add "Minas, Tirith" South')
    session.ok('editneighbor -add "Minas, Tirith" Mordor')
    said = session.fails(f"savemap {tmp_path / 'c.map'} -format conquest")
    assert "cannot be written in a Conquest file" in said and '"Minas, Tirith"' in said
    session.ok(f"savemap {tmp_path / 'd.map'} -format domination")


def test_savemap_says_what_the_format_changes(session: Session, tmp_path: Path) -> None:
    session.ok('editcountry -add "Mount Doom" South')
    session.ok('editneighbor -add "Mount Doom" Mordor')
    said = session.ok(f"savemap {tmp_path / 'd.map'}")
    assert 'written with _ instead: "Mount Doom"' in said
    assert "Mount_Doom" in session.map, "the editor holds the map as the file now holds it"
    assert not session.state.unsaved


def test_savemap_that_cannot_write_keeps_the_changes_unsaved(session: Session, tmp_path: Path) -> None:
    from client.map_editor import EditorSession

    editor = EditorSession(session.state)
    reply = editor.run(f'savemap "{tmp_path / "no such folder" / "x.map"}"')
    assert reply is not None and not reply.ok
    assert reply.lines[0].startswith(f"error: cannot write {tmp_path / 'no such folder' / 'x.map'}")
    assert editor.state.unsaved and editor.state.path == session.state.path


# --- help and quit --------------------------------------------------------------------------------------------


def test_help_lists_every_command(session: Session) -> None:
    said = session.ok("help")
    for spec in COMMANDS:
        assert f"  {spec.usage}" in said


def test_help_on_a_command_explains_it(session: Session) -> None:
    said = session.ok("help editneighbor").splitlines()
    assert said[0] == "editneighbor -add A B -remove A B (also: editneighbour)"
    assert any("both ways" in line for line in said)


def test_quit_asks_before_losing_unsaved_changes(session: Session) -> None:
    reply = execute(session.state, Quit())
    assert reply.action is Action.CONFIRM_QUIT and reply.lines == ("the map has unsaved changes",)


def test_quit_force_leaves_without_asking(session: Session) -> None:
    assert execute(session.state, Quit(force=True)).action is Action.QUIT


def test_quit_after_saving_leaves_without_asking(session: Session) -> None:
    session.ok("savemap")
    assert execute(session.state, Quit()).action is Action.QUIT


def test_quit_after_undoing_every_change_leaves_without_asking(tmp_path: Path) -> None:
    s = Session.new(tmp_path / "m.map")
    s.ok("editcontinent -add C 1")
    s.ok("undo")
    assert execute(s.state, Quit()).action is Action.QUIT


# --- completion -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "offered"),
    [
        ("", [spec.name for spec in COMMANDS]),
        ("EDITC", ["editcontinent", "editcountry"]),
        ("editcountry ", ["-add", "-remove"]),
        ("editcountry -add Rohan ", ["North", "South"]),
        ("editcountry -add Rohan s", ["South"]),
        ("editcountry -add Rohan South ", ["-add", "-remove"]),
        ("editcountry -remove ", ["Narnia", "Oz", "Gondor", "Mordor"]),
        ("editcontinent -remove n", ["North"]),
        ("editcontinent -add West ", []),
        ("editneighbor -add Narnia g", ["Gondor"]),
        ("savemap out.map ", ["-format"]),
        ("savemap out.map -format ", ["native", "domination", "conquest"]),
        ("help edit", ["editcontinent", "editcountry", "editneighbor", "editpicture"]),
        ("quit ", ["-force"]),
        ("frobnicate ", []),
    ],
)
def test_completion_offers_what_the_next_word_names(session: Session, typed: str, offered: list[str]) -> None:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from client.map_editor import EditorSession, MapCompleter

    completer = MapCompleter(EditorSession(session.state))
    assert [c.display_text for c in completer.get_completions(Document(typed), CompleteEvent())] == offered


def test_completion_quotes_a_name_with_spaces_and_replaces_an_open_quote(session: Session) -> None:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from client.map_editor import EditorSession, MapCompleter

    session.ok('editcountry -add "Mount Doom" South')
    completer = MapCompleter(EditorSession(session.state))
    [completion] = completer.get_completions(Document('editneighbor -add "Mount D'), CompleteEvent())
    assert (completion.text, completion.start_position) == ('"Mount Doom"', -len('"Mount D'))
