/**
 * `zoo_clinic`: an outpatient clinic, snake_case with declared foreign keys. Events with their own
 * time and a duration (appointments: DATETIME, duration_minutes, fee), lab results at a TIMESTAMP,
 * a bridge with an extra attribute (appointment_diagnoses.role), a code → label lookup of
 * diagnoses, DATE columns that are not events (birth_date, hired_on), and numbers that are not
 * quantities (license_number, postal_code, phone_number).
 */
import { DAY_MS, HOUR_MS, MINUTE_MS, formatDate, formatDateTime, utcDate, utcMidnight } from '../calendar';
import { growth, spreadEvents, weekendFactor, yearlyCycle } from '../event-times';
import { columnsOf, datedFact, type GeneratedDatabase } from '../generated-database';
import { personName } from '../names';
import { SeededRandom } from '../random';
import { decimal, money } from '../sql-literals';
import { GeneratedTable, databaseStatements, referenceTable } from '../table-builder';
import type { ZooOptions, ZooSchema } from './zoo-schema';

const NAME = 'zoo_clinic';
const FROM = utcDate(2023, 4, 1);
const TO = utcDate(2025, 4, 1);
const APPOINTMENTS = 2400;

/** Department and its consultation fee in cents. */
const DEPARTMENTS: [string, number][] = [
  ['General Practice', 8500],
  ['Cardiology', 16000],
  ['Dermatology', 12000],
  ['Pediatrics', 9000],
  ['Orthopedics', 14000],
  ['Endocrinology', 15000],
];
const INSURERS = [
  'Harbor Health Mutual',
  'Crescent Insurance',
  'Unity Care',
  'Pinecrest Assurance',
  'Civic Health Fund',
];
const DIAGNOSES: [string, string][] = [
  ['J06.9', 'Acute upper respiratory infection'],
  ['I10', 'Essential hypertension'],
  ['E11.9', 'Type 2 diabetes without complications'],
  ['M54.5', 'Low back pain'],
  ['L20.9', 'Atopic dermatitis'],
  ['J45.9', 'Asthma'],
  ['K21.9', 'Gastro-oesophageal reflux disease'],
  ['R51', 'Headache'],
  ['Z00.0', 'General medical examination'],
  ['F41.1', 'Generalized anxiety disorder'],
  ['M17.1', 'Osteoarthritis of knee'],
  ['L70.0', 'Acne vulgaris'],
  ['E78.5', 'Hyperlipidaemia'],
  ['H10.9', 'Conjunctivitis'],
  ['S93.4', 'Sprain of ankle'],
  ['E03.9', 'Hypothyroidism'],
];
/** Test code, unit, typical value and spread. */
const LAB_TESTS: [string, string, number, number][] = [
  ['HBA1C', '%', 6.1, 1.1],
  ['LDL', 'mmol/L', 3.0, 0.9],
  ['TSH', 'mIU/L', 2.2, 1.2],
  ['CRP', 'mg/L', 4, 5],
  ['GLU', 'mmol/L', 5.6, 1.4],
];
const NO_SHOW_FEE_CENTS = 2500;

function generate(options: ZooOptions = {}): GeneratedDatabase {
  const rng = new SeededRandom(options.seed ?? 1);
  const departments = referenceTable(
    'departments',
    { department_id: 'SMALLINT NOT NULL', name: 'VARCHAR(60) NOT NULL' },
    DEPARTMENTS.map(([name], i) => ({ department_id: i + 1, name })),
  );
  const insurers = referenceTable(
    'insurers',
    { insurer_id: 'SMALLINT NOT NULL', name: 'VARCHAR(60) NOT NULL' },
    INSURERS.map((name, i) => ({ insurer_id: i + 1, name })),
  );
  const doctors = new GeneratedTable(
    'doctors',
    {
      doctor_id: 'INT NOT NULL',
      department_id: 'SMALLINT NOT NULL',
      full_name: 'VARCHAR(80) NOT NULL',
      license_number: 'BIGINT NOT NULL',
      birth_date: 'DATE NOT NULL',
      hired_on: 'DATE NOT NULL',
    },
    [
      'PRIMARY KEY (doctor_id)',
      'UNIQUE KEY uq_doctors_license (license_number)',
      'CONSTRAINT fk_doctors_department FOREIGN KEY (department_id) REFERENCES departments (department_id)',
    ],
  );
  const patients = new GeneratedTable(
    'patients',
    {
      patient_id: 'INT NOT NULL',
      first_name: 'VARCHAR(50) NOT NULL',
      last_name: 'VARCHAR(50) NOT NULL',
      birth_date: 'DATE NOT NULL',
      sex: 'CHAR(1) NOT NULL',
      postal_code: 'INT NULL',
      phone_number: 'BIGINT NULL',
      insurer_id: 'SMALLINT NULL',
      created_at: 'DATETIME NOT NULL',
      updated_at: 'TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP',
    },
    [
      'PRIMARY KEY (patient_id)',
      'CONSTRAINT fk_patients_insurer FOREIGN KEY (insurer_id) REFERENCES insurers (insurer_id)',
    ],
  );
  const diagnoses = referenceTable(
    'diagnoses',
    { code: 'VARCHAR(8) NOT NULL', label: 'VARCHAR(80) NOT NULL' },
    DIAGNOSES.map(([code, label]) => ({ code, label })),
  );
  const appointments = new GeneratedTable(
    'appointments',
    {
      appointment_id: 'INT NOT NULL',
      patient_id: 'INT NOT NULL',
      doctor_id: 'INT NOT NULL',
      scheduled_at: 'DATETIME NOT NULL',
      checked_in_at: 'DATETIME NULL',
      duration_minutes: 'SMALLINT NULL',
      status: "ENUM('completed','no_show','cancelled') NOT NULL",
      fee: 'DECIMAL(10,2) NOT NULL',
    },
    [
      'PRIMARY KEY (appointment_id)',
      'KEY idx_appointments_scheduled (scheduled_at)',
      'CONSTRAINT fk_appointments_patient FOREIGN KEY (patient_id) REFERENCES patients (patient_id)',
      'CONSTRAINT fk_appointments_doctor FOREIGN KEY (doctor_id) REFERENCES doctors (doctor_id)',
    ],
  );
  const appointmentDiagnoses = new GeneratedTable(
    'appointment_diagnoses',
    {
      appointment_id: 'INT NOT NULL',
      diagnosis_code: 'VARCHAR(8) NOT NULL',
      role: "ENUM('primary','secondary') NOT NULL",
    },
    [
      'PRIMARY KEY (appointment_id, diagnosis_code)',
      'CONSTRAINT fk_appdiag_appointment FOREIGN KEY (appointment_id) REFERENCES appointments (appointment_id)',
      'CONSTRAINT fk_appdiag_diagnosis FOREIGN KEY (diagnosis_code) REFERENCES diagnoses (code)',
    ],
  );
  const labResults = new GeneratedTable(
    'lab_results',
    {
      result_id: 'INT NOT NULL',
      appointment_id: 'INT NOT NULL',
      test_code: 'VARCHAR(10) NOT NULL',
      measured_at: 'TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP',
      result_value: 'DECIMAL(8,2) NOT NULL',
      unit: 'VARCHAR(10) NOT NULL',
    },
    [
      'PRIMARY KEY (result_id)',
      'CONSTRAINT fk_lab_results_appointment FOREIGN KEY (appointment_id) REFERENCES appointments (appointment_id)',
    ],
  );

  const doctorDepartments: number[] = [];
  for (let d = 1; d <= 18; d++) {
    const department = d <= 6 ? d : rng.weighted([1, 2, 3, 4, 5, 6], [5, 2, 2, 3, 2, 1]);
    const name = personName(rng);
    const born = utcDate(rng.int(1958, 1992), rng.int(1, 12), rng.int(1, 28));
    doctors.add({
      doctor_id: d,
      department_id: department,
      full_name: `Dr. ${name.first} ${name.last}`,
      license_number: 4_100_000_000 + d * 7919 + rng.int(0, 999),
      birth_date: formatDate(born),
      hired_on: formatDate(utcDate(rng.int(2012, 2022), rng.int(1, 12), rng.int(1, 28))),
    });
    doctorDepartments.push(department);
  }

  const registered = spreadEvents(rng, {
    from: utcDate(2015, 1, 1),
    to: TO - 30 * DAY_MS,
    count: 900,
    hours: [8, 18],
  });
  const patientWeights: number[] = [];
  registered.forEach((createdAt, i) => {
    const name = personName(rng);
    const born = createdAt - rng.int(0, 90 * 365) * DAY_MS - rng.int(0, 364) * DAY_MS;
    patients.add({
      patient_id: i + 1,
      first_name: name.first,
      last_name: name.last,
      birth_date: formatDate(utcMidnight(born)),
      sex: rng.weighted(['F', 'M', 'X'], [51, 48, 1]),
      postal_code: rng.chance(0.95) ? 10000 + rng.int(1, 380) : null,
      phone_number: rng.chance(0.9) ? 2_125_550_100 + rng.int(0, 99) : null,
      insurer_id: rng.chance(0.9) ? rng.int(1, INSURERS.length) : null,
      created_at: formatDateTime(createdAt),
      updated_at: formatDateTime(Math.max(createdAt, TO - rng.int(1, 700) * DAY_MS)),
    });
    patientWeights.push(Math.exp(rng.normal(0, 0.9)));
  });
  const patientIds = registered.map((_, i) => i + 1);

  // Winter colds raise demand; weekends only see the Saturday morning clinic.
  const slots = spreadEvents(rng, {
    from: FROM,
    to: TO,
    count: APPOINTMENTS,
    weight: (day) => yearlyCycle(day, 20, 0.2) * weekendFactor(day, 0.05) * growth(day, FROM, TO, 1.3),
    hours: [8, 18],
  }).map((at) => Math.floor(at / (15 * MINUTE_MS)) * 15 * MINUTE_MS);
  let resultId = 0;
  slots.forEach((scheduled, i) => {
    const id = i + 1;
    const doctor = rng.int(1, 18);
    const eligible = patientIds.filter((p) => registered[p - 1] <= scheduled);
    const patient = rng.weighted(
      eligible,
      eligible.map((p) => patientWeights[p - 1]),
    );
    const status = rng.weighted(['completed', 'no_show', 'cancelled'] as const, [85, 8, 7]);
    const completed = status === 'completed';
    const checkedIn = scheduled + rng.int(-10, 20) * MINUTE_MS;
    appointments.add({
      appointment_id: id,
      patient_id: patient,
      doctor_id: doctor,
      scheduled_at: formatDateTime(scheduled),
      checked_in_at: completed ? formatDateTime(checkedIn) : null,
      duration_minutes: completed ? rng.int(10, 60) : null,
      status,
      fee: money(
        completed
          ? DEPARTMENTS[doctorDepartments[doctor - 1] - 1][1]
          : status === 'no_show'
            ? NO_SHOW_FEE_CENTS
            : 0,
      ),
    });
    if (!completed) return;
    rng.sample(DIAGNOSES, rng.weighted([1, 2, 3], [70, 22, 8])).forEach(([code], n) =>
      appointmentDiagnoses.add({
        appointment_id: id,
        diagnosis_code: code,
        role: n === 0 ? 'primary' : 'secondary',
      }),
    );
    if (rng.chance(0.35)) {
      for (const [test, unit, mean, sd] of rng.sample(LAB_TESTS, rng.int(1, 3))) {
        const measured = checkedIn + rng.int(1, 30) * HOUR_MS;
        if (measured >= TO) continue;
        labResults.add({
          result_id: ++resultId,
          appointment_id: id,
          test_code: test,
          measured_at: formatDateTime(measured),
          result_value: decimal(Math.max(1, Math.round(rng.normal(mean, sd) * 100)), 2),
          unit,
        });
      }
    }
  });

  return {
    name: NAME,
    description: 'Outpatient clinic: appointments, diagnoses and lab results',
    statements: databaseStatements([
      departments,
      insurers,
      doctors,
      patients,
      diagnoses,
      appointments,
      appointmentDiagnoses,
      labResults,
    ]),
    truth: {
      industry: 'health',
      facts: [
        {
          ...datedFact('appointments', 'scheduled_at', 'instant'),
          revenue_sql: 'SELECT SUM(fee) AS revenue FROM appointments',
        },
        datedFact('lab_results', 'measured_at', 'instant'),
      ],
      never_aggregate: [
        ...columnsOf('departments', 'department_id'),
        ...columnsOf('insurers', 'insurer_id'),
        ...columnsOf('doctors', 'doctor_id', 'department_id', 'license_number'),
        ...columnsOf('patients', 'patient_id', 'postal_code', 'phone_number', 'insurer_id'),
        ...columnsOf('appointments', 'appointment_id', 'patient_id', 'doctor_id'),
        ...columnsOf('appointment_diagnoses', 'appointment_id'),
        ...columnsOf('lab_results', 'result_id', 'appointment_id'),
      ],
      roles: {
        appointments: 'event',
        lab_results: 'event',
        appointment_diagnoses: 'bridge',
        diagnoses: 'lookup',
        patients: 'dimension',
        doctors: 'dimension',
      },
    },
  };
}

export const clinic: ZooSchema = {
  name: NAME,
  summary:
    'outpatient clinic, snake_case with declared FKs: appointments (DATETIME, duration_minutes, fee) and lab results (TIMESTAMP) as events, appointment_diagnoses bridge with a role, diagnoses lookup, non-event DATEs, license/postal/phone numbers',
  generate,
};
