// One work budget for a whole exercise document (exercises/README.md "Exercise documents are untrusted input"):
// every request a document declares and every variant lint draws for it charge one meter, so a
// document of 20 near-budget simulations, or a constraint that never holds, stops after about a
// second natively instead of running for minutes. Units are the executor's (1e8 is about half a
// second natively). Outside a document (a plain request) nothing is counted.
#pragma once
#include <string>

namespace commlab {

/// The whole document's budget: about a second natively.
constexpr double kDocumentWorkUnits = 2e8;
/// What any declared request costs besides its own estimate (about 50 us natively).
constexpr double kDeclaredRequestUnits = 1e4;
/// What solving a document once costs for each item it holds (a param, an answer, a computed
/// value, a conclusion's case), requests or not: params resolved, figures and texts filled,
/// about 5 us natively. Lint solves a document thousands of times (every range end, 50 draws,
/// the variants): with 2,000 params that took 18 s before it was counted.
constexpr double kSolveUnitsPerItem = 1000;

/// Opens the document's meter while it lives, unless one is open already (the outermost
/// document op owns it: exercise.lint's variant draws share the lint's budget).
class DocumentWork {
 public:
  DocumentWork();
  ~DocumentWork();
  DocumentWork(const DocumentWork&) = delete;
  DocumentWork& operator=(const DocumentWork&) = delete;

 private:
  bool owner_;
};

/// Charges `units` to the open document meter (none open: nothing). Throws RequestError
/// ("too_large") naming the limit once the document's work passes kDocumentWorkUnits.
void charge_work(double units);
/// Whether the open meter has run out (a document's later steps stop at once).
bool document_work_exhausted();
/// The units the last document op that owned the meter used (what tests compare across sizes).
double last_document_work_units();
/// The message of the error charge_work throws.
std::string document_work_message();

}  // namespace commlab
