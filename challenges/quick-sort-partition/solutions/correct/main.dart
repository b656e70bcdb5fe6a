import 'dart:convert';
import 'dart:io';

// Prints one step line: "@step " and the fields as one JSON object.
void step(Map<String, Object?> fields) {
  print('@step ' + jsonEncode(fields));
}

void swap(List<int> array, int a, int b) {
  final kept = array[a];
  array[a] = array[b];
  array[b] = kept;
}

void quickSort(List<int> array, int lo, int hi) {
  if (lo >= hi) return;
  final pivot = array[hi];
  step({'action': 'pivot', 'active': [hi], 'array': array});
  var i = lo;
  for (var j = lo; j < hi; j++) {
    step({'action': 'compare', 'active': [j, hi], 'array': array});
    if (array[j] <= pivot) {
      if (i != j) {
        swap(array, i, j);
        step({'action': 'swap', 'active': [i, j], 'array': array});
      }
      i++;
    }
  }
  swap(array, i, hi);
  step({'action': 'place', 'active': [i], 'array': array});
  quickSort(array, lo, i - 1);
  quickSort(array, i + 1, hi);
}

Future<void> main() async {
  final text = await stdin.transform(utf8.decoder).join();
  final numbers = text.split(RegExp(r'\s+')).where((token) => token.isNotEmpty).map(int.parse).toList();
  final n = numbers[0];
  final array = numbers.sublist(1, 1 + n);
  quickSort(array, 0, n - 1);
  step({'action': 'done', 'active': [], 'array': array});
  print(array.join(' '));
}
