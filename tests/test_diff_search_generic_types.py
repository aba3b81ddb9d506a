"""The diff search's generic recipes for Java names (``by_diff.generic``): ``java.ChangeType`` for a type the imports
move to another package, rename on the way or swap for another, told the old and the new fully qualified name (a
package renamed in one part stays ``ChangePackage``'s); ``java.ChangeMethodName`` for a method called under another
name."""

from __future__ import annotations

import test_diff_search_generic_kinds

from rewrite_assist.server.diffs.features import Change
from rewrite_assist.server.search.by_diff.generic import (
    METHOD_RENAME,
    PACKAGE_RENAME,
    TYPE_CHANGE,
    generic_options,
    generic_recipes,
    method_renames,
    type_changes,
)

known = test_diff_search_generic_kinds.known  # the catalog's recipe ids (a fixture)


def test_a_type_moved_to_another_package_gets_change_type_with_both_names(known) -> None:
    moved = Change(
        "java",
        ["import io.dropwizard.Configuration;", "import io.dropwizard.setup.Bootstrap;"],
        ["import io.dropwizard.core.Configuration;", "import io.dropwizard.core.setup.Bootstrap;"],
    )
    assert type_changes(moved) == [
        ("io.dropwizard.Configuration", "io.dropwizard.core.Configuration"),
        ("io.dropwizard.setup.Bootstrap", "io.dropwizard.core.setup.Bootstrap"),
    ]
    assert generic_recipes(moved, known, path="src/main/java/a/App.java") == [TYPE_CHANGE]
    assert generic_options(TYPE_CHANGE, "App.java", moved) == {
        "oldFullyQualifiedTypeName": "io.dropwizard.Configuration",
        "newFullyQualifiedTypeName": "io.dropwizard.core.Configuration",
    }


def test_a_renamed_or_swapped_type_gets_change_type(known) -> None:
    # renamed on the way: a static wildcard of the class
    renamed = Change(
        "java", ["import static org.mockito.Matchers.*;"], ["import static org.mockito.ArgumentMatchers.*;"]
    )
    assert type_changes(renamed) == [("org.mockito.Matchers", "org.mockito.ArgumentMatchers")]
    # one type import swapped for another, its uses with it
    swapped = Change(
        "java",
        ["import io.micronaut.http.client.RxHttpClient;", "    private final RxHttpClient client;"],
        ["import io.micronaut.http.client.HttpClient;", "    private final HttpClient client;"],
    )
    assert generic_recipes(swapped, known) == [TYPE_CHANGE]
    assert generic_options(TYPE_CHANGE, "Client.java", swapped) == {
        "oldFullyQualifiedTypeName": "io.micronaut.http.client.RxHttpClient",
        "newFullyQualifiedTypeName": "io.micronaut.http.client.HttpClient",
    }


def test_what_is_no_type_change_gets_no_change_type(known) -> None:
    # a package renamed in one part moves all its types: ChangePackage's edit, not one ChangeType per type
    jakarta = Change("java", ["import javax.persistence.Entity;"], ["import jakarta.persistence.Entity;"])
    assert generic_recipes(jakarta, known) == [PACKAGE_RENAME]
    # imports only added, only removed, a static member import swapped, or two swapped at once: no pairing
    assert type_changes(Change("java", [], ["import java.util.List;"])) == []
    assert type_changes(Change("java", ["import java.util.List;"], [])) == []
    assert type_changes(Change("java", ["import static a.B.c;"], ["import static a.B.d;"])) == []
    two = Change("java", ["import a.B;", "import a.C;"], ["import x.D;", "import x.E;"])
    assert type_changes(two) == []
    assert generic_recipes(Change("java", ["int a = 1;"], ["int a = 2;"]), known) == []


def test_a_method_called_under_another_name_gets_change_method_name(known) -> None:
    renamed = Change(
        "java", ["        verifyZeroInteractions(repository);"], ["        verifyNoInteractions(repository);"]
    )
    assert method_renames(renamed) == [("verifyZeroInteractions", "verifyNoInteractions")]
    assert generic_recipes(renamed, known) == [METHOD_RENAME]
    # the declaring type is not on the line: any type's method of that name
    assert generic_options(METHOD_RENAME, "AlertTest.java", renamed) == {
        "methodPattern": "*..* verifyZeroInteractions(..)",
        "newMethodName": "verifyNoInteractions",
    }
    chained = Change(
        "java", ["long id = Thread.currentThread().getId();"], ["long id = Thread.currentThread().threadId();"]
    )
    assert method_renames(chained) == [("getId", "threadId")]
    # an argument, a variable or a type changed is no method rename; nor are two names changed on one line
    assert method_renames(Change("java", ["int a = size(1);"], ["int a = size(2);"])) == []
    assert method_renames(Change("java", ["int count = 1;"], ["int total = 1;"])) == []
    assert method_renames(Change("java", ["Foo foo = new Foo();"], ["Bar foo = new Bar();"])) == []
    assert method_renames(Change("java", ["a.get(x).put(y);"], ["a.fetch(x).store(y);"])) == []
