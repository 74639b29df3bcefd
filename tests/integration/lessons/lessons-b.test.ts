import { allLessons, checkLessons, LESSON_FILES } from './lesson-checks';

checkLessons(allLessons.filter((l) => LESSON_FILES.b.includes(l.order)));
