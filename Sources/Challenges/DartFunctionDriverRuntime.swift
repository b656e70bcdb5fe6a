extension DartFunctionDriver {
  /// The part of the Dart driver that is the same for every challenge: the node classes, the
  /// conversions and the encoder, the watchdog isolate and `main`.
  static let runtime = #"""
    class ListNode {
      int val;
      ListNode? next;
      ListNode([this.val = 0, this.next]);
    }

    class TreeNode {
      int val;
      TreeNode? left;
      TreeNode? right;
      TreeNode([this.val = 0, this.left, this.right]);
    }

    const limit = 1000000;

    dynamic convert(dynamic json, String type) {
      switch (type) {
        case 'int': return (json as num).toInt();
        case 'float': return (json as num).toDouble();
        case 'bool': return json as bool;
        case 'string': return json as String;
        case 'linked_list':
          ListNode? head;
          for (final value in (json as List).reversed) head = ListNode(value as int, head);
          return head;
        case 'tree': return toTree(json as List);
        case 'graph':
          final adjacency = List.generate(json['n'] as int, (_) => <int>[]);
          for (final edge in json['edges'] as List) {
            final int u = edge[0], v = edge[1];
            adjacency[u].add(v);
            if (json['directed'] != true && u != v) adjacency[v].add(u);
          }
          return adjacency;
        case 'int[]': return List<int>.from((json as List).map((v) => convert(v, 'int')));
        case 'float[]': return List<double>.from((json as List).map((v) => convert(v, 'float')));
        case 'bool[]': return List<bool>.from(json as List);
        case 'string[]': return List<String>.from(json as List);
        case 'int[][]': return List<List<int>>.from((json as List).map((v) => convert(v, 'int[]')));
        case 'float[][]': return List<List<double>>.from((json as List).map((v) => convert(v, 'float[]')));
        case 'bool[][]': return List<List<bool>>.from((json as List).map((v) => convert(v, 'bool[]')));
        case 'string[][]': return List<List<String>>.from((json as List).map((v) => convert(v, 'string[]')));
      }
      throw ArgumentError(type);
    }

    TreeNode? toTree(List values) {
      if (values.isEmpty || values[0] == null) return null;
      final root = TreeNode(values[0] as int);
      final queue = <TreeNode>[root];
      var head = 0, index = 1;
      while (head < queue.length && index < values.length) {
        final node = queue[head++];
        if (index < values.length && values[index] != null) queue.add(node.left = TreeNode(values[index] as int));
        index++;
        if (index < values.length && values[index] != null) queue.add(node.right = TreeNode(values[index] as int));
        index++;
      }
      return root;
    }

    class Unencodable implements Exception {
      final String what;
      Unencodable(this.what);
    }

    void encode(dynamic value, StringBuffer out) {
      if (value == null) {
        out.write('null');
      } else if (value is bool || value is int) {
        out.write(value);
      } else if (value is double) {
        if (value.isNaN) {
          out.write('"NaN"');
        } else if (value.isInfinite) {
          out.write(value > 0 ? '"Infinity"' : '"-Infinity"');
        } else {
          out.write(value.toString());
        }
      } else if (value is String) {
        out.write(jsonEncode(value));
      } else if (value is ListNode) {
        final values = <int>[];
        for (ListNode? node = value; node != null; node = node.next) {
          if (values.length >= limit) throw Unencodable('linked list of more than a million nodes (a cycle?)');
          values.add(node.val);
        }
        out.write('[${values.join(',')}]');
      } else if (value is TreeNode) {
        final queue = <TreeNode?>[value];
        final values = <String>[];
        for (var head = 0; head < queue.length; head++) {
          if (values.length >= 2 * limit) throw Unencodable('tree of more than a million nodes (a cycle?)');
          final node = queue[head];
          if (node == null) {
            values.add('null');
            continue;
          }
          values.add('${node.val}');
          queue..add(node.left)..add(node.right);
        }
        while (values.isNotEmpty && values.last == 'null') values.removeLast();
        out.write('[${values.join(',')}]');
      } else if (value is List) {
        out.write('[');
        for (var i = 0; i < value.length; i++) {
          if (i > 0) out.write(',');
          encode(value[i], out);
        }
        out.write(']');
      } else {
        throw Unencodable(value.runtimeType.toString());
      }
    }

    int cpuMicroseconds() {
      final fields = File('/proc/self/stat').readAsStringSync().split(') ').last.split(' ');
      // utime and stime, fields 14 and 15 of the line: 11 and 12 after the command's closing parenthesis.
      return (int.parse(fields[11]) + int.parse(fields[12])) * 10000;
    }

    // The watchdog's isolate: it gets [test, cpuStart, wallStart] when a test starts and null when it ends.
    void watch(List<dynamic> setup) {
      final SendPort back = setup[0];
      final String nonce = setup[1];
      final int cpuBudget = setup[2] * 1000, wallBudget = setup[3] * 1000;
      final port = ReceivePort();
      back.send(port.sendPort);
      List<dynamic>? armed;
      port.listen((message) => armed = message);
      Timer.periodic(const Duration(milliseconds: 5), (_) {
        final test = armed;
        if (test == null) return;
        String? kind;
        if (cpuMicroseconds() - test[1] >= cpuBudget) {
          kind = 'cpu';
        } else if (DateTime.now().microsecondsSinceEpoch - test[2] >= wallBudget) {
          kind = 'wall';
        }
        if (kind == null) return;
        stdout.write('\n@limit $nonce {"test":${test[0]},"kind":"$kind"}\n');
        stdout.flush().then((_) => exit(3));
      });
    }

    Future<void> main() async {
      final input = utf8.decode(await stdin.fold<List<int>>(<int>[], (all, chunk) => all..addAll(chunk)));
      final newline = input.indexOf('\n');
      final nonce = input.substring(0, newline).trim();
      final request = jsonDecode(input.substring(newline + 1)) as Map<String, dynamic>;
      void emit(String line) => stdout.write('\n$line\n');
      final setup = ReceivePort();
      await Isolate.spawn(watch, [setup.sendPort, nonce, request['cpu_ms'], request['wall_ms']]);
      final SendPort watchdog = await setup.first;
      // The learner's print() goes to stderr, in order with the markers; the report is on stdout.
      final quiet = ZoneSpecification(print: (self, parent, zone, line) => stderr.writeln(line));
      for (final test in request['tests'] as List) {
        final index = test['index'];
        stderr.write('\n@begin $nonce $index\n');
        emit('@begin $nonce $index');
        // Written before the call: a call that ends the process must leave its test's marker behind.
        await stderr.flush();
        await stdout.flush();
        final args = [for (var i = 0; i < TYPES.length; i++) convert(test['args'][i], TYPES[i])];
        final cpuStart = cpuMicroseconds(), wallStart = DateTime.now().microsecondsSinceEpoch;
        watchdog.send([index, cpuStart, wallStart]);
        dynamic value;
        String? fields;
        try {
          value = runZoned(() => call(args), zoneSpecification: quiet);
        } catch (error, stack) {
          stderr.writeln('$error\n$stack');
          fields = ',"raised":${jsonEncode('$error')}';
        }
        watchdog.send(null);
        final cpuMs = (cpuMicroseconds() - cpuStart) ~/ 1000;
        final wallMs = (DateTime.now().microsecondsSinceEpoch - wallStart) ~/ 1000;
        if (fields == null) {
          final out = StringBuffer();
          try {
            if (value == null && (RESULT == 'linked_list' || RESULT == 'tree')) {
              out.write('[]');
            } else {
              encode(value, out);
            }
            fields = ',"value":$out';
          } on Unencodable catch (error) {
            fields = ',"unencodable":${jsonEncode('a ${error.what}')}';
          } on StackOverflowError {
            fields = ',"unencodable":"a value nested too deeply"';
          }
        }
        emit('@result $nonce {"test":$index,"cpu_ms":$cpuMs,"wall_ms":$wallMs$fields}');
      }
      emit('@done $nonce');
      await stdout.flush();
      await stderr.flush();
      exit(0);
    }
    """#
}
