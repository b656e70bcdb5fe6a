// attack: huge template instantiation: a 440 x 440 grid of class templates, each needing its two neighbours (about 190,000 instantiations)
// expect: status in [compile_error, time_limit, memory_limit, output_limit]; compile in [compile_error, time_limit, memory_limit, output_limit]; elapsed_s < 50
template <int A, int B> struct Grid { static const long value = Grid<A - 1, B>::value + Grid<A, B - 1>::value; };
template <int B> struct Grid<0, B> { static const long value = 1; };
template <int A> struct Grid<A, 0> { static const long value = 1; };

int main() { return (int)Grid<440, 440>::value; }
