#!/usr/bin/env bash
# budget-minutes: 10
# The Javadoc of every module builds without a warning: ./mvnw javadoc:javadoc with the parent
# POM's failOnWarnings (doclint: syntax, HTML and references; a missing comment is checked for
# the public mpi API by mpi-core's PublicApiJavadocTest in the verify run instead).
set -euo pipefail
cd "$(dirname "$0")/../.."
# The plugin's up-to-date check looks only at the top folder of each source path (javadoc plugin
# issue 1324): forget its record so that a changed comment is always checked.
rm -f ./*/target/maven-javadoc-plugin-stale-data.txt
./mvnw -q compile javadoc:javadoc
