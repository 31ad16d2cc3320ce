#pragma once
#include <cblas.h>
