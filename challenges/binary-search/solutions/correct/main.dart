import 'dart:convert';
import 'dart:io';

// Prints one step line: "@step " and the fields as one JSON object (null prints as null).
void step(Map<String, Object?> fields) {
  print('@step ' + jsonEncode(fields));
}

int search(List<int> array, int target) {
  var low = 0;
  var high = array.length - 1;
  while (low <= high) {
    final mid = low + (high - low) ~/ 2;
    final found = array[mid] == target;
    step({'low': low, 'high': high, 'mid': mid, 'found': found});
    if (found) return mid;
    if (array[mid] < target) {
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  step({'low': low, 'high': high, 'mid': null, 'found': false});
  return -1;
}

Future<void> main() async {
  final text = await stdin.transform(utf8.decoder).join();
  final numbers = text.split(RegExp(r'\s+')).where((token) => token.isNotEmpty).map(int.parse).toList();
  final n = numbers[0];
  final array = numbers.sublist(1, 1 + n);
  final target = numbers[1 + n];
  print(search(array, target));
}
