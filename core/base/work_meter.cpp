// The document work meter (work_meter.hpp). Single-threaded per evaluate call: thread_local.
#include "base/work_meter.hpp"
#include "base/concat.hpp"

#include "base/error.hpp"

namespace commlab {

namespace {
struct Meter {
  bool open = false;
  double used = 0;
};
thread_local Meter meter;
thread_local double last_used = 0;
}  // namespace

DocumentWork::DocumentWork() : owner_(!meter.open) {
  if (owner_) meter = Meter{true, 0};
}

DocumentWork::~DocumentWork() {
  if (!owner_) return;
  last_used = meter.used;
  meter = Meter{};
}

double last_document_work_units() { return last_used; }

std::string document_work_message() {
  return "the exercise document's work (every request it declares, every variant drawn) passes its "
         "budget of 2e+08 units (about a second); allowed: fewer or lighter requests, constraints that "
         "hold for most draws";
}

void charge_work(double units) {
  if (!meter.open) return;
  meter.used += units;
  if (meter.used > kDocumentWorkUnits) refuse("too_large", {document_work_message()});
}

bool document_work_exhausted() { return meter.open && meter.used > kDocumentWorkUnits; }

}  // namespace commlab
