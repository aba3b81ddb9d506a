"""The diff search's generic recipes for a Spring Boot configuration file (``by_diff.generic``): in a Spring project's
``application*`` / ``bootstrap*`` file, the Spring property recipes (either format, by the property's dotted name)
before the file format's own, told the property and its value or new name; a YAML key nested under other keys with
its values kept is a rename."""

from __future__ import annotations

import test_diff_search_generic_kinds

from rewrite_assist.server.diffs.features import Change
from rewrite_assist.server.search.by_diff.generic import SPRING, generic_options, generic_recipes, spring_project

APP_YML = "src/main/resources/application.yml"
APP_PROPERTIES = "src/main/resources/application-prod.properties"

known = test_diff_search_generic_kinds.known  # the catalog's recipe ids (a fixture)


def test_a_spring_config_edit_gets_the_spring_property_recipe_first(known) -> None:
    renamed = Change(
        "properties", ["spring.batch.initialize-schema=always"], ["spring.batch.jdbc.initialize-schema=always"]
    )
    assert generic_recipes(renamed, known, path=APP_PROPERTIES, spring=True) == [
        SPRING["rename"],
        "org.openrewrite.properties.ChangePropertyKey",
    ]
    assert generic_options(SPRING["rename"], APP_PROPERTIES, renamed) == {
        "oldPropertyKey": "spring.batch.initialize-schema",
        "newPropertyKey": "spring.batch.jdbc.initialize-schema",
    }
    gone = Change("yaml", ["      dialect: org.hibernate.dialect.PostgreSQL10Dialect"], [])
    above = ["spring:", "  jpa:", "    properties:"]
    assert generic_recipes(gone, known, above, APP_YML, spring=True)[0] == SPRING["remove"]
    assert generic_options(SPRING["remove"], APP_YML, gone, above) == {"propertyKey": "spring.jpa.properties.dialect"}
    port = Change("properties", ["server.port=8080"], ["server.port=8081"])
    assert generic_options(SPRING["change"], APP_PROPERTIES, port) == {
        "propertyKey": "server.port",
        "newValue": "8081",
        "oldValue": "8080",
    }
    added = Change("properties", [], ["springdoc.swagger-ui.path=/docs"])
    assert generic_recipes(added, known, path=APP_PROPERTIES, spring=True)[0] == SPRING["add"]
    assert generic_options(SPRING["add"], APP_PROPERTIES, added) == {
        "property": "springdoc.swagger-ui.path",
        "value": "/docs",
    }
    # a YAML key opening a block has no value of its own: no options
    block = Change("yaml", [], ["  threads:"])
    assert generic_options(SPRING["add"], APP_YML, block, ["spring:"]) == {}


def test_no_spring_recipe_outside_a_spring_projects_config_files(known) -> None:
    quarkus = Change("properties", ["quarkus.hibernate-orm.log.sql=false"], [])
    assert generic_recipes(quarkus, known, path=APP_PROPERTIES, spring=False) == [
        "org.openrewrite.properties.DeleteProperty"
    ]
    compose = Change("yaml", ["    image: redis:6"], ["    image: redis:7"])
    assert not set(SPRING.values()) & set(generic_recipes(compose, known, path="docker-compose.yml", spring=True))
    assert spring_project("+    <artifactId>spring-boot-starter-web</artifactId>\n")
    assert not spring_project("+quarkus.rest.path=/api\n")


def test_a_yaml_key_nested_under_another_with_its_values_is_a_rename(known) -> None:
    moved = Change(
        "yaml",
        ["  redis:", "    host: localhost", "    port: 6379"],
        ["  data:", "    redis:", "      host: localhost", "      port: 6379"],
    )
    assert generic_recipes(moved, known, ["spring:"], APP_YML, spring=True) == [
        SPRING["rename"],
        "org.openrewrite.yaml.ChangePropertyKey",
    ]
    # block keys reordered (no values on either side) are renamed keys too
    reordered = Change(
        "yaml", ["  metrics:", "    export:", "      prometheus:"], ["  prometheus:", "    metrics:", "      export:"]
    )
    assert generic_recipes(reordered, known, ["management:"], APP_YML)[0] == "org.openrewrite.yaml.ChangePropertyKey"
    # a value changed is no rename
    bumped = Change("yaml", ["    port: 6379"], ["    port: 6380"])
    assert generic_recipes(bumped, known, ["redis:"], APP_YML, spring=True) == [
        SPRING["change"],
        "org.openrewrite.yaml.ChangePropertyValue",
    ]
