#!/usr/bin/env bash
# budget-minutes: 15
# The distribution: ./mvnw package -Pdist builds distribution/target/verbatim-VERSION.tar.gz
# (with every module's -sources and -javadoc jars), and DistributionIT unpacks it into an empty
# directory, puts its bin/ on PATH and runs Ring and a program compiled with mpijavac. The tests
# of the other modules ran in the verify step before; only the distribution's runs here.
set -euo pipefail
cd "$(dirname "$0")/../.."
./mvnw -q verify -Pdist -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test=DistributionIT -Dfailsafe.failIfNoSpecifiedTests=false
ls -l distribution/target/verbatim-*.tar.gz
