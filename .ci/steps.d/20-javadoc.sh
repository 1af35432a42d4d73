#!/usr/bin/env bash
# budget-minutes: 10
# The Javadoc of every module builds without a warning: ./mvnw javadoc:javadoc with the parent
# POM's failOnWarnings (doclint: syntax, HTML and references; a missing comment is checked for
# the public mpi API by mpi-core's PublicApiJavadocTest in the verify run instead).
set -euo pipefail
cd "$(dirname "$0")/../.."
./mvnw -q javadoc:javadoc
