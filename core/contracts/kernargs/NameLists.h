// A names array (CppArgList::Form::Names: `IMPLICIT_GEMM_KERNARG_NAMES{"p_N", ...}`) against the
// Python names list it restates (PyNameList: `conv_abi.py:conv_arg_names`, evaluated at
// extraction). Order is the contract: the kernel packs its arguments by position, so a swap is
// as breaking as a missing name.
//
// Pairing (pairNameLists), in this order:
//  1. through a profile: a launch_surface entry whose python_source names an evaluated names
//     list and whose cpp_mirror file holds names arrays pairs the list with the array of that
//     file holding most of the list's names (at least half of the array's names);
//  2. by names: every array not paired so is paired with the evaluated list of the tree that
//     holds most of its names (at least 3/4 of them, and at least 4); ties go to the list whose
//     names line up with the array in more positions, then to the one closest in length, then to
//     a public function (no leading `_`);
//  3. an entry whose python_source names a function that could not be evaluated pairs it with
//     every names array of its cpp_mirror file that 1 and 2 left unpaired: the row says why it
//     is not compared.
// The array restates the list's tail: it leaves out the list's leading names (the conv ABI's
// six pointers and byte counts). Those are the names before the first name the array holds
// (when the pair existed at the base, the base's leading names when the list still starts
// with them: a name added at the head of the tail is then a difference, not one more leading
// name). The tail is compared with the array name by name, in order.
#pragma once

#include <string>
#include <vector>

#include "analysis/TreeFacts.h"
#include "model/Facts.h"
#include "model/Layout.h"

namespace impact {

struct NameListPair {
  std::string pyPath;                 // the module
  const PyNameList* list = nullptr;   // its function (evaluated or not)
  std::string cppPath;
  const CppArgList* array = nullptr;  // Form::Names
  std::string manifest, entry;        // the profile and entry it pairs through; "" by names
  std::string key() const { return cppPath + "|" + array->symbol + "|" + array->variable; }
};

std::vector<NameListPair> pairNameLists(const TreeFacts& facts, const Layout& layout);

struct NamesComparison {
  bool agree = false;
  std::vector<std::string> leading;  // the list's names the array leaves out
  std::string message;               // what differs; or what agrees
  int focusList = -1, focusArray = -1;  // first difference: index in the list, in the array
};

// `leadingAtBase`: the leading names of the same pair at the base, or null.
NamesComparison compareNames(const PyNameList& list, const CppArgList& array,
                             const std::vector<std::string>* leadingAtBase);

}  // namespace impact
